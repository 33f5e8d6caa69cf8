from django.contrib import admin

from .models import Deck, Match, MatchMove


class MatchMoveInline(admin.TabularInline):
    model = MatchMove
    extra = 0
    can_delete = False
    readonly_fields = ["number", "seat", "action", "by_computer", "created_at"]

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "session", "status", "version", "created_at"]
    list_filter = ["game", "status"]
    readonly_fields = ["state", "version", "seed", "result"]
    inlines = [MatchMoveInline]


@admin.register(MatchMove)
class MatchMoveAdmin(admin.ModelAdmin):
    """Read-only: the move log is what a match is replayed from."""

    list_display = ["match", "number", "seat", "by_computer", "created_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Deck)
class DeckAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "created_at"]
