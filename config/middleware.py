"""Response headers Django has no setting for."""

from django.conf import settings
from django.utils.deprecation import MiddlewareMixin


class PermissionsPolicyMiddleware(MiddlewareMixin):
    """Permissions-Policy on every response: the browser features the site never uses are off."""

    def process_response(self, request, response):
        response.headers.setdefault("Permissions-Policy", settings.PERMISSIONS_POLICY)
        return response
