"""``GET /api/docs``: the API's OpenAPI document (``tables.openapi``) as a page of the site.

Drawn on the server from the same document ``/api/openapi.json`` serves, with the site's own template, so it
needs no script (the site's CSP allows none from elsewhere) and reads like the rest of the site.
"""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _

from tables.openapi import ninja_api

REF = "#/components/schemas/"


def docs(request):
    document = ninja_api.get_openapi_schema(path_params={})
    schemas = document.get("components", {}).get("schemas", {})
    operations = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            operations.append(
                {
                    "anchor": operation["operationId"],
                    "method": method.upper(),
                    "path": path,
                    "summary": translated(operation.get("summary", "")),
                    "description": translated(operation.get("description", "")),
                    "deprecated": operation.get("deprecated", False),
                    "token": bool(operation.get("security")),
                    "parameters": [
                        {
                            "name": p["name"],
                            "where": p["in"],
                            "type": type_text(p.get("schema", {})),
                            "required": p.get("required", False),
                            "description": translated(p.get("description", "")),
                        }
                        for p in operation.get("parameters", [])
                    ],
                    "body": body_of(operation),
                    "responses": [
                        {"status": status, "type": answer_of(answer)}
                        for status, answer in operation.get("responses", {}).items()
                    ],
                }
            )
    return render(
        request,
        "tables/api_docs.html",
        {
            "document": document,
            "operations": operations,
            "schemas": [
                {"name": name, "fields": fields_of(shape), "type": type_text(shape)}
                for name, shape in sorted(schemas.items())
            ],
        },
    )


def translated(text: str) -> str:
    """The document is in English (``gettext_noop`` in tables.openapi); the page is in the reader's language."""
    return _(text) if text else ""


def body_of(operation: dict) -> dict | None:
    body = operation.get("requestBody")
    if not body:
        return None
    schema = body.get("content", {}).get("application/json", {}).get("schema", {})
    return {"type": type_text(schema), "required": body.get("required", False)}


def answer_of(answer: dict) -> str:
    schema = answer.get("content", {}).get("application/json", {}).get("schema")
    return _("no content") if schema is None else type_text(schema)


def type_text(schema: dict) -> str:
    """A schema in a few words: ``TableOut``, ``list of ChatOut``, ``integer or null``."""
    if "$ref" in schema:
        return schema["$ref"].removeprefix(REF)
    if "anyOf" in schema:
        return _(" or ").join(type_text(s) for s in schema["anyOf"])
    if "enum" in schema:
        return _(" or ").join(repr(v) if isinstance(v, str) else str(v) for v in schema["enum"])
    if "const" in schema:
        return repr(schema["const"])
    kind = schema.get("type")
    if kind == "array":
        return _("list of %(items)s") % {"items": type_text(schema.get("items", {}))}
    if kind == "object" and "properties" not in schema:
        inner = schema.get("additionalProperties")
        if isinstance(inner, dict) and inner:
            return _("object of %(values)s") % {"values": type_text(inner)}
        return _("object")
    if kind == "object":
        return schema.get("title", _("object"))
    if isinstance(kind, str):
        return kind
    return _("any JSON")


def fields_of(shape: dict) -> list[dict]:
    required = set(shape.get("required", []))
    return [
        {
            "name": name,
            "type": type_text(field),
            "required": name in required,
            "description": translated(field.get("description", "")),
        }
        for name, field in shape.get("properties", {}).items()
    ]
