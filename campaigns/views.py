from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from rules.registry import SYSTEMS

from . import confirm, links, services
from .forms import CampaignEditForm, CampaignForm, InviteForm, RoleForm, SceneForm
from .locking import Busy
from .models import Membership, Role, Scene
from .permissions import get_campaign_for_gm, get_campaign_for_user


def home(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("campaign_list")
    return render(request, "home.html")


@login_required
def campaign_list(request: HttpRequest) -> HttpResponse:
    memberships = (
        Membership.objects.filter(user=request.user)
        .select_related("campaign")
        .order_by("campaign__name")
    )
    return render(
        request,
        "campaigns/list.html",
        {"memberships": memberships, "systems": list(SYSTEMS.values())},
    )


@login_required
def campaign_create(request: HttpRequest) -> HttpResponse:
    form = CampaignForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        campaign = services.create_campaign(request.user, **form.cleaned_data)
        messages.success(request, f"{campaign.name} is ready. Invite your players next.")
        return redirect(campaign)
    return render(request, "campaigns/create.html", {"form": form})


@login_required
def campaign_home(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    members = campaign.memberships.select_related("user").order_by("role", "user__username")
    return render(
        request,
        "campaigns/home.html",
        {
            "campaign": campaign,
            "membership": membership,
            "members": members,
            "active_scene": campaign.active_scene,
            # The GM invites from here: a link made in one press, or the one already made.
            "has_invite": membership.is_gm and bool(services.active_invites(campaign)),
        },
    )


@login_required
def campaign_edit(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_gm(request.user, campaign_id)
    form = CampaignEditForm(request.POST or None, instance=campaign)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Campaign saved.")
        return redirect(campaign)
    return render(
        request,
        "campaigns/edit.html",
        {"campaign": campaign, "membership": membership, "form": form},
    )


def _other_gm_campaigns(user, campaign) -> list:
    return [c for c in services.gm_campaigns(user) if c.pk != campaign.pk]


def _invite_rows(request: HttpRequest, campaign) -> list[dict]:
    """Each active invite with its link, as friends open it, and the link's QR code."""
    rows = []
    for invite in services.active_invites(campaign):
        url = links.site_url(request, invite.get_absolute_url())
        label = f"{invite.get_role_display()} invite link"
        rows.append(
            {
                "invite": invite,
                "url": url,
                "label": label,
                "campaigns": invite.covered_campaigns(),
                "qr": links.qr_svg(url, f"QR code of the {label.lower()}"),
            }
        )
    return rows


@login_required
def members(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_gm(request.user, campaign_id)
    rows = campaign.memberships.select_related("user").order_by("role", "user__username")
    return render(
        request,
        "campaigns/members.html",
        {
            "campaign": campaign,
            "membership": membership,
            "rows": rows,
            "roles": Role.choices,
            "invites": _invite_rows(request, campaign),
            "invite_form": InviteForm(others=_other_gm_campaigns(request.user, campaign)),
            "works_here_only": links.works_here_only(request),
        },
    )


def _refused(request: HttpRequest, error: services.CampaignError) -> None:
    messages.error(request, str(error))


@login_required
@require_POST
def member_role(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    campaign, _ = get_campaign_for_gm(request.user, campaign_id)
    form = RoleForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Choose GM, player or observer.")
        return redirect("members", campaign.pk)
    try:
        changed = services.change_role(campaign, membership_id, form.cleaned_data["role"])
        messages.success(request, f"{changed.user} is now {changed.get_role_display()}.")
    except services.CampaignError as error:
        _refused(request, error)
    return redirect("members", campaign.pk)


@login_required
@require_POST
def member_remove(request: HttpRequest, campaign_id: int, membership_id: int) -> HttpResponse:
    campaign, own = get_campaign_for_gm(request.user, campaign_id)
    member = Membership.objects.filter(campaign=campaign, pk=membership_id).first()
    if member is not None and not confirm.confirmed(request):
        name = member.user.shown_name
        return confirm.ask(
            request,
            campaign=campaign,
            membership=own,
            question=f"Remove {name} from {campaign.name}?",
            consequence=f"{name} can no longer open this campaign; "
            "an invite link lets them back in.",
            button=f"Remove {name}",
            cancel_url=reverse("members", args=[campaign.pk]),
        )
    try:
        removed = services.remove_member(campaign, membership_id)
        messages.success(request, f"{removed.user} was removed from {campaign.name}.")
    except services.CampaignError as error:
        _refused(request, error)
        return redirect("members", campaign.pk)
    if removed.user_id == request.user.pk:
        return redirect("campaign_list")
    return redirect("members", campaign.pk)


@login_required
@require_POST
def leave(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    if not confirm.confirmed(request):
        return confirm.ask(
            request,
            campaign=campaign,
            membership=membership,
            question=f"Leave {campaign.name}?",
            consequence="You can no longer open this campaign; "
            "you need a new invite link to come back.",
            button="Leave campaign",
            cancel_url=campaign.get_absolute_url(),
        )
    try:
        services.leave(campaign, membership)
    except services.CampaignError as error:
        _refused(request, error)
        return redirect(campaign)
    messages.success(request, f"You left {campaign.name}.")
    return redirect("campaign_list")


@login_required
@require_POST
def invite_create(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, _ = get_campaign_for_gm(request.user, campaign_id)
    form = InviteForm(request.POST, others=_other_gm_campaigns(request.user, campaign))
    if form.is_valid():
        try:
            services.create_invite(
                campaign,
                request.user,
                form.cleaned_data["role"],
                form.cleaned_data.get("extra_campaigns") or (),
            )
            messages.success(request, "New invite link created.")
        except services.CampaignError as error:
            _refused(request, error)
    elif "role" in form.errors:
        messages.error(request, "Invites are for players or observers.")
    else:
        messages.error(request, "An invite can only cover campaigns you are a GM of.")
    return redirect("members", campaign.pk)


@login_required
@require_POST
def invite_revoke(request: HttpRequest, campaign_id: int, invite_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_gm(request.user, campaign_id)
    if not confirm.confirmed(request):
        return confirm.ask(
            request,
            campaign=campaign,
            membership=membership,
            question="Revoke this invite link?",
            consequence="Whoever has the link can no longer join with it; "
            "people who already joined stay.",
            button="Revoke link",
            cancel_url=reverse("members", args=[campaign.pk]),
        )
    try:
        services.revoke_invite(campaign, invite_id)
        messages.success(request, "Invite revoked: the old link no longer works.")
    except services.CampaignError as error:
        _refused(request, error)
    return redirect("members", campaign.pk)


@login_required
@require_POST
def invite_regenerate(request: HttpRequest, campaign_id: int, invite_id: int) -> HttpResponse:
    campaign, _ = get_campaign_for_gm(request.user, campaign_id)
    try:
        services.regenerate_invite(campaign, invite_id, request.user)
        messages.success(request, "New link created; the old one no longer works.")
    except services.CampaignError as error:
        _refused(request, error)
    return redirect("members", campaign.pk)


def _join_and_say(request: HttpRequest, invite) -> str:
    """Join, say so, and answer where the newcomer goes: a new player makes their
    character in the first campaign; anyone else goes to its table."""
    joined = services.join(invite, request.user)
    first, first_is_new = joined[0]
    new = [m for m, created in joined if created]
    makes_character = first_is_new and first.role == Role.PLAYER
    if new:
        names = ", ".join(m.campaign.name for m in new)
        next_step = " Make your character next." if makes_character else ""
        messages.success(request, f"You joined {names} as {new[0].get_role_display()}.{next_step}")
    else:
        messages.info(request, f"You are already in {invite.campaign.name}.")
    if makes_character:
        return reverse("sheet_create", args=[first.campaign_id])
    return reverse("table", args=[first.campaign_id])


def _welcome_rows(invite) -> list[dict]:
    rows = []
    for campaign in services.joinable_campaigns(invite):
        gms = campaign.memberships.filter(role=Role.GM).select_related("user")
        rows.append(
            {
                "campaign": campaign,
                "game": campaign.get_system_display(),
                "gms": [m.user.shown_name for m in gms],
            }
        )
    return rows


@login_required
def join(request: HttpRequest, token: str) -> HttpResponse:
    try:
        invite = services.find_invite(token)
    except services.CampaignError as error:
        return render(request, "campaigns/join_invalid.html", {"error": str(error)}, status=404)
    rows = _welcome_rows(invite)
    joined = set(
        Membership.objects.filter(
            user=request.user, campaign__in=[r["campaign"] for r in rows]
        ).values_list("campaign_id", flat=True)
    )
    existing = Membership.objects.filter(campaign=invite.campaign, user=request.user).first()
    if request.method == "POST":
        return redirect(_join_and_say(request, invite))
    context = {
        "invite": invite,
        "existing": existing if len(joined) == len(rows) else None,
        "rows": rows,
    }
    return render(request, "campaigns/join.html", context)


def invite_welcome(token: str) -> dict | None:
    """What an invite says to a visitor who has no account yet (the log-in and sign-up
    pages show it): the campaigns, their games and GMs, the role. None for a link that
    is no valid invite, which then looks like any other page."""
    try:
        invite = services.find_invite(token)
    except services.CampaignError:
        return None
    return {"role": invite.get_role_display(), "rows": _welcome_rows(invite)}


def invite_arrival(request: HttpRequest, token: str) -> str | None:
    """Join right after a log-in or sign-up made from the invite's page (its button says
    so); None when the invite stopped working meanwhile, and its page then says why."""
    try:
        invite = services.find_invite(token)
    except services.CampaignError:
        return None
    return _join_and_say(request, invite)


# The log-in and sign-up pages ask the page they lead to what to say and do
# (accounts/arrival.py).
join.welcome = invite_welcome
join.arrive = invite_arrival


@login_required
def scenes(request: HttpRequest, campaign_id: int) -> HttpResponse:
    campaign, membership = get_campaign_for_user(request.user, campaign_id)
    form = SceneForm(request.POST or None)
    if request.method == "POST":
        campaign, membership = get_campaign_for_gm(request.user, campaign_id)
        if form.is_valid():
            scene = services.create_scene(campaign, **form.cleaned_data)
            messages.success(request, f"Scene “{scene.title}” created.")
            return redirect("scenes", campaign.pk)
    return render(
        request,
        "campaigns/scenes.html",
        {
            "campaign": campaign,
            "membership": membership,
            "scenes": campaign.scenes.all(),
            "form": form,
            "Status": Scene.Status,
        },
    )


@login_required
@require_POST
def scene_start(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    campaign, _ = get_campaign_for_gm(request.user, campaign_id)
    try:
        scene, ended = services.start_scene(campaign, scene_id)
        note = f" “{ended.title}” ended." if ended else ""
        messages.success(request, f"“{scene.title}” is now the active scene.{note}")
    except (services.CampaignError, Busy) as error:
        _refused(request, error)
    return redirect("scenes", campaign.pk)


@login_required
@require_POST
def scene_end(request: HttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    campaign, _ = get_campaign_for_gm(request.user, campaign_id)
    try:
        scene = services.end_scene(campaign, scene_id)
        messages.success(request, f"“{scene.title}” has ended.")
    except (services.CampaignError, Busy) as error:
        _refused(request, error)
    return redirect("scenes", campaign.pk)
