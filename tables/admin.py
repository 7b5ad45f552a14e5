from django.contrib import admin

from tables.models import Move, Seat, Table


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "status", "players", "seq", "created_at")
    list_filter = ("game", "status")
    exclude = ("seed", "state")  # hidden information stays hidden, even from the admin
    inlines = [SeatInline]


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("table", "seq", "seat", "at")
