from django.contrib import admin

from .models import (
    Character,
    CheckRequest,
    Contest,
    GameSession,
    ImportedLog,
    Invite,
    Membership,
    Presence,
    Roll,
    RulesProfile,
    Table,
    TimelineEvent,
)


@admin.register(RulesProfile)
class RulesProfileAdmin(admin.ModelAdmin):
    list_display = ["name", "table", "critical", "fumble", "modifier_limit"]


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ["name", "gm", "created_at"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "table", "role", "joined_at"]
    list_filter = ["role"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["table", "created_by", "created_at", "expires_at", "revoked"]


@admin.register(GameSession)
class GameSessionAdmin(admin.ModelAdmin):
    list_display = ["title", "table", "scheduled_for", "rules_profile", "last_seq"]


@admin.register(TimelineEvent)
class TimelineEventAdmin(admin.ModelAdmin):
    """Read-only: the timeline is append-only, and only services append to it."""

    list_display = ["session", "seq", "kind", "actor", "visibility", "created_at"]
    list_filter = ["kind", "visibility"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Presence)
class PresenceAdmin(admin.ModelAdmin):
    list_display = ["session", "user", "connected_at"]

    def has_add_permission(self, request):
        return False


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "owner", "table"]
    list_filter = ["kind"]


@admin.register(Contest)
class ContestAdmin(admin.ModelAdmin):
    list_display = ["label", "session", "status", "winner", "reason"]


@admin.register(CheckRequest)
class CheckRequestAdmin(admin.ModelAdmin):
    list_display = ["label", "character", "session", "status", "secret"]
    list_filter = ["status"]


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    """Read-only: a roll is stored once; a mistake is voided by a new timeline event."""

    list_display = ["label", "command", "character", "roller", "faces", "source", "created_at"]
    list_filter = ["source", "secret"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ImportedLog)
class ImportedLogAdmin(admin.ModelAdmin):
    """Read-only: where an imported session came from."""

    list_display = ["session", "imported_by", "imported_at", "complete", "view_of"]
    list_filter = ["complete"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
