from django.contrib import admin

from .models import GameSession, Invite, Membership, Presence, RulesProfile, Table, TimelineEvent


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
