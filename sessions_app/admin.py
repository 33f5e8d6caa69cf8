from django.contrib import admin

from .models import (
    Appearance,
    Character,
    CharacterFace,
    ChatTab,
    CheckRequest,
    Contest,
    CutIn,
    DiceEpoch,
    ExperienceAccount,
    ExperienceEntry,
    GameSession,
    GrowthRequest,
    GuestAccount,
    Handout,
    HandoutReveal,
    ImportedLog,
    Invite,
    Membership,
    Participation,
    PlannedScene,
    PreparedCheck,
    Presence,
    Roll,
    RulesProfile,
    Scenario,
    ScenarioNpc,
    Scene,
    SceneRequest,
    SessionSignoff,
    SheetChange,
    SpectatorPresence,
    StageRequest,
    Table,
    TableAudio,
    TableBar,
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
    list_display = ["name", "gm", "created_at", "spectators_allowed"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["user", "table", "role", "joined_at"]
    list_filter = ["role"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = ["table", "created_by", "created_at", "expires_at", "revoked", "allows_guests"]


@admin.register(TableBar)
class TableBarAdmin(admin.ModelAdmin):
    list_display = ["user", "table", "barred_by", "barred_at"]


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


@admin.register(SpectatorPresence)
class SpectatorPresenceAdmin(admin.ModelAdmin):
    list_display = ["session", "language", "time_zone", "connected_at"]

    def has_add_permission(self, request):
        return False


@admin.register(GuestAccount)
class GuestAccountAdmin(admin.ModelAdmin):
    list_display = ["user", "table", "invite", "created_at"]


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "kind", "owner", "table"]
    list_filter = ["kind"]


@admin.register(CharacterFace)
class CharacterFaceAdmin(admin.ModelAdmin):
    list_display = ["character", "label", "is_portrait", "created_at"]
    list_filter = ["is_portrait"]


@admin.register(ChatTab)
class ChatTabAdmin(admin.ModelAdmin):
    list_display = ["name", "session", "position", "archived"]
    list_filter = ["archived"]


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


class ReadOnlyAdmin(admin.ModelAdmin):
    """History written by the services as play goes on: shown, never edited here."""

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(DiceEpoch)
class DiceEpochAdmin(ReadOnlyAdmin):
    """The commitments; the master secret is not shown, even to staff."""

    list_display = ["session", "number", "used", "size", "root", "created_at"]
    exclude = ["master"]


@admin.register(Participation)
class ParticipationAdmin(admin.ModelAdmin):
    list_display = ["character", "session", "slot", "sheet_status", "intro_done"]
    list_filter = ["sheet_status"]


class PlannedSceneInline(admin.TabularInline):
    model = PlannedScene
    extra = 0
    fields = ["phase", "position", "title", "scene_player_slot", "place", "purpose"]


class ScenarioNpcInline(admin.TabularInline):
    model = ScenarioNpc
    extra = 0


class HandoutInline(admin.StackedInline):
    model = Handout
    extra = 0


@admin.register(Scenario)
class ScenarioAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "player_count", "created_at"]
    search_fields = ["title"]
    inlines = [PlannedSceneInline, ScenarioNpcInline, HandoutInline]


class PreparedCheckInline(admin.TabularInline):
    model = PreparedCheck
    extra = 0


@admin.register(PlannedScene)
class PlannedSceneAdmin(admin.ModelAdmin):
    list_display = ["title", "scenario", "phase", "position", "scene_player_slot"]
    list_filter = ["phase"]
    inlines = [PreparedCheckInline]


@admin.register(PreparedCheck)
class PreparedCheckAdmin(admin.ModelAdmin):
    list_display = ["label", "planned_scene", "value_name", "difficulty", "secret"]


@admin.register(ScenarioNpc)
class ScenarioNpcAdmin(admin.ModelAdmin):
    list_display = ["name", "scenario", "concept"]


@admin.register(Handout)
class HandoutAdmin(admin.ModelAdmin):
    list_display = ["title", "scenario", "slot"]


@admin.register(HandoutReveal)
class HandoutRevealAdmin(ReadOnlyAdmin):
    list_display = ["handout", "session", "revealed_by", "revealed_at"]


@admin.register(Scene)
class SceneAdmin(admin.ModelAdmin):
    list_display = ["session", "number", "title", "phase", "scene_player", "status"]
    list_filter = ["phase", "status"]


@admin.register(Appearance)
class AppearanceAdmin(ReadOnlyAdmin):
    list_display = ["character", "scene", "way", "entered_at", "exited_at"]
    list_filter = ["way"]


@admin.register(StageRequest)
class StageRequestAdmin(ReadOnlyAdmin):
    list_display = ["character", "scene", "kind", "status", "requested_by", "decided_by"]
    list_filter = ["kind", "status"]


@admin.register(SceneRequest)
class SceneRequestAdmin(ReadOnlyAdmin):
    list_display = ["session", "requested_by", "scene_player", "place", "status", "decided_by"]
    list_filter = ["status"]


@admin.register(SheetChange)
class SheetChangeAdmin(ReadOnlyAdmin):
    list_display = ["participation", "changed_by", "changed_at", "withdrew_check"]
    list_filter = ["withdrew_check", "resources_only"]


@admin.register(SessionSignoff)
class SessionSignoffAdmin(admin.ModelAdmin):
    list_display = ["session", "signer_name", "signed_at"]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(ExperienceEntry)
class ExperienceEntryAdmin(ReadOnlyAdmin):
    """The ledger is append-only: a mistake is fixed by a correction entry."""

    list_display = [
        "person",
        "game",
        "table",
        "session",
        "kind",
        "amount",
        "balance_after",
        "created_at",
    ]
    list_filter = ["kind", "game"]


@admin.register(ExperienceAccount)
class ExperienceAccountAdmin(ReadOnlyAdmin):
    """The row a person's ledger in one game is written under."""

    list_display = ["person", "game"]


@admin.register(GrowthRequest)
class GrowthRequestAdmin(ReadOnlyAdmin):
    """Growth is asked of and confirmed by a GM in the app, not edited here."""

    list_display = ["person", "character", "reason", "cost", "status", "requested_at"]
    list_filter = ["status"]


@admin.register(ImportedLog)
class ImportedLogAdmin(ReadOnlyAdmin):
    """Where an imported session came from."""

    list_display = ["session", "imported_by", "imported_at", "complete", "view_of"]
    list_filter = ["complete"]


@admin.register(TableAudio)
class TableAudioAdmin(admin.ModelAdmin):
    list_display = ["title", "table", "content_type", "duration", "heard", "uploaded_at"]


@admin.register(CutIn)
class CutInAdmin(admin.ModelAdmin):
    list_display = ["text", "table", "created_by", "created_at"]
