"""Pages (server-rendered). The API lives under /api/ (api.urls); sheets and print
jobs under rosters.urls."""

from django.contrib.auth import views as auth_views
from django.urls import path

from .views import accounts, clubs, home, installable, mails, notices, play, push, setup, webhooks

CAMPAIGN = "campaigns/<int:pk>/"

auth = [
    path(
        "accounts/login/",
        auth_views.LoginView.as_view(redirect_authenticated_user=True),
        name="login",
    ),
    path("accounts/logout/", accounts.SignOutView.as_view(), name="logout"),
    path(
        "accounts/password/change/", accounts.PasswordChangeView.as_view(), name="password_change"
    ),
    path(
        "accounts/password/change/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("accounts/password/reset/", auth_views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "accounts/password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "accounts/password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("join/<str:code>/", accounts.join, name="join"),
    path("accounts/settings/", mails.mail_settings, name="mail-settings"),
    path("accounts/push/subscribe/", push.push_subscribe, name="push-subscribe"),
    path("accounts/push/remove/", push.push_remove, name="push-remove"),
    path("accounts/address/<str:signed>/", mails.confirm_address, name="mails-confirm"),
    path("mails/unsubscribe/<str:signed>/", mails.unsubscribe, name="mails-unsubscribe"),
]

urlpatterns = [
    # First: the page read most. Django tries the routes in order, each before it costing every
    # read of it (about 1 us a route); no other route matches its addresses (tests/web/test_routes.py).
    path(CAMPAIGN, play.campaign_detail, name="campaign"),
    *auth,
    path("", home.dashboard, name="dashboard"),
    path("campaigns/", home.my_campaigns, name="my-campaigns"),
    path("manifest.webmanifest", installable.manifest, name="web-manifest"),
    path("sw.js", installable.service_worker, name="service-worker"),
    path("notices/", notices.notice_list, name="notices"),
    path("notices/read/", notices.notices_read, name="notices-read"),
    path("notices/<int:notice_id>/", notices.notice_open, name="notice-open"),
    path("clubs/new/", home.club_new, name="club-new"),
    path("clubs/<slug:slug>/", clubs.club_detail, name="club"),
    path("clubs/<slug:slug>/campaigns/", clubs.club_campaigns, name="club-campaigns"),
    path("clubs/<slug:slug>/invitations/", clubs.invitation_create, name="invitation-create"),
    path(
        "clubs/<slug:slug>/invitations/<int:invitation_id>/revoke/",
        clubs.invitation_revoke,
        name="invitation-revoke",
    ),
    path("clubs/<slug:slug>/members/<str:username>/role/", clubs.member_role, name="member-role"),
    path("clubs/<slug:slug>/hand-over/", clubs.hand_over, name="hand-over"),
    path("clubs/<slug:slug>/webhooks/", webhooks.webhook_list, name="webhooks"),
    path(
        "clubs/<slug:slug>/webhooks/<int:webhook_id>/",
        webhooks.webhook_change,
        name="webhook-change",
    ),
    path(
        "clubs/<slug:slug>/webhooks/<int:webhook_id>/remove/",
        webhooks.webhook_remove,
        name="webhook-remove",
    ),
    path(
        "clubs/<slug:slug>/webhooks/<int:webhook_id>/secret/",
        webhooks.webhook_secret,
        name="webhook-secret",
    ),
    path(
        "clubs/<slug:slug>/webhooks/<int:webhook_id>/test/",
        webhooks.webhook_test,
        name="webhook-test",
    ),
    path(
        "clubs/<slug:slug>/webhooks/<int:webhook_id>/deliveries/<int:delivery_id>/again/",
        webhooks.webhook_retry,
        name="webhook-retry",
    ),
    path("clubs/<slug:slug>/campaigns/new/", setup.campaign_new_choose, name="campaign-new-choose"),
    path("clubs/<slug:slug>/campaigns/new/<slug:system>/", setup.campaign_new, name="campaign-new"),
    path(CAMPAIGN + "submit/", play.campaign_submit, name="campaign-submit"),
    path(CAMPAIGN + "mails/", mails.campaign_mails, name="campaign-mails"),
    path(CAMPAIGN + "history/", play.campaign_history, name="campaign-history"),
    path(CAMPAIGN + "records/", play.campaign_records, name="campaign-records"),
    path(CAMPAIGN + "scenarios/", play.campaign_scenarios, name="campaign-scenarios"),
    path(CAMPAIGN + "procedure/", play.campaign_procedure, name="campaign-procedure"),
    path(CAMPAIGN + "history/<uuid:uid>/undo/", play.propose_undo, name="propose-undo"),
    path(
        CAMPAIGN + "history/<uuid:uid>/correct/", play.propose_correction, name="propose-correction"
    ),
    path(CAMPAIGN + "propose/house-rule/", play.propose_house_rule, name="propose-house-rule"),
    path(CAMPAIGN + "propose/export/", play.propose_export, name="propose-export"),
    path(CAMPAIGN + "export/", play.campaign_export, name="campaign-export"),
    path(CAMPAIGN + "setup/", setup.campaign_setup, name="campaign-setup"),
    path(CAMPAIGN + "setup/players/", setup.player_add, name="setup-player-add"),
    path(CAMPAIGN + "setup/players/remove/", setup.player_remove, name="setup-player-remove"),
    path(CAMPAIGN + "setup/players/replace/", setup.player_replace, name="setup-player-replace"),
    path(CAMPAIGN + "setup/referee/", setup.referee_set, name="setup-referee"),
    path(CAMPAIGN + "setup/house-rules/", setup.house_rule_set, name="setup-house-rule"),
    path(CAMPAIGN + "setup/start/", setup.campaign_start, name="campaign-start"),
    path(CAMPAIGN + "setup/finish/", setup.campaign_finish, name="campaign-finish"),
    path(CAMPAIGN + "archive/", setup.campaign_archive, name="campaign-archive"),
    path(CAMPAIGN + "restore/", setup.campaign_restore, name="campaign-restore"),
    path(CAMPAIGN + "again/", setup.campaign_like, name="campaign-like"),
]
