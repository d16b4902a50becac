"""A Python Automation API inline program on the generated SDK (pulumi_notify), driven by
test/e2e/python.test.ts through the venv of scripts/ensure-python-venv.

    python inline_program.py <up|up-refresh|preview|preview-refresh|destroy>

with the settings of driver.py on stdin, plus second: `{url, key}` of a second environment, for
an explicit provider.

The program declares integrations, a workflow with translation on and its French translation
(the workflow's output as its resource id), subscriber credentials, a context, an inbound-email
domain with a route and a layout (the environment's first, hence its default) through the default
provider (the stack config), calls a function, and declares one more integration through an
explicit provider of the second environment. Beside them, the kinds of issue #38, each referring to
the others by their outputs as a user writes them: a subscriber with its credentials and
preferences, a topic and a subscription to it, the context's shared Slack workspace (its token a
secret of the stack config) and an endpoint through it, and an agent linked to the Slack
integration that the domain routes an address to; each has its read function called, the result
exported.
"""

import pulumi
import pulumi_notify as notify

import driver

SENDGRID_KEY = "SG.python-secret-sendgrid-key"
SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/python-hook"
# As in test/e2e/python.test.ts.
TRANSLATION = {"greeting": "Bonjour {{subscriber.firstName}}", "email": {"subject": "Bienvenue"}}
CONTEXT_DATA = {"name": "Acme", "plan": "pro"}
DOMAIN = "py-mail.example.com"
ONCALL_HOOK = "https://hooks.slack.example/services/T000/B000/python-oncall-hook"
# The workflow the topic subscription lets through only for critical incidents.
CRITICAL = {"==": [{"var": "payload.severity"}, "critical"]}


def program(second: dict) -> None:
    email = notify.Integration(
        "sendgrid",
        identifier="py-sendgrid",
        name="SendGrid (Python)",
        provider_id="sendgrid",
        channel=notify.Channel.EMAIL,
        credentials=notify.IntegrationCredentialsArgs(api_key=SENDGRID_KEY, from_="no-reply@example.com"),
        active=True,
    )
    slack = notify.Integration(
        "slack", identifier="py-slack", name="Slack (Python)", provider_id="slack", channel=notify.Channel.CHAT, active=True,
    )
    welcome = notify.Workflow(
        "welcome",
        workflow_id="py-welcome",
        name="Welcome (Python)",
        # Active: the service shows a subscriber's preference of a channel only while an active
        # workflow has a step of it, so the on-call's email preference below is compared.
        active=True,
        is_translation_enabled=True,
        steps=[
            notify.WorkflowStepArgs(name="Inbox", type=notify.WorkflowStepKind.IN_APP, control_values={"body": "Hi {{subscriber.firstName}}"}),
            notify.WorkflowStepArgs(name="Email", type=notify.WorkflowStepKind.EMAIL, control_values={"subject": "Welcome", "body": "<p>Hi</p>"}),
        ],
    )
    cred = notify.SubscriberCredentials(
        "alice-slack",
        subscriber_id="alice",
        provider_id="slack",
        integration_identifier=slack.identifier,
        credentials=notify.ChannelCredentialsArgs(webhook_url=SLACK_HOOK),
    )
    alice = notify.get_subscriber_output(subscriber_id="alice")
    # The French copy of the workflow: its id is the workflow's output, so it is made after it.
    french = notify.Translation(
        "welcome-fr",
        resource_type=notify.TranslationResourceType.WORKFLOW,
        resource_id=welcome.workflow_id,
        locale="fr_FR",
        content=TRANSLATION,
    )
    acme = notify.Context("acme", type="tenant", context_id="py-acme", data=CONTEXT_DATA)
    # The environment's first layout, hence its default: destroy leaves it on the service, with a warning.
    notify.Layout("frame", layout_id="py-frame", name="Frame (Python)")

    # A subscriber kept in code: its credentials and preferences take its subscriberId output, so
    # the engine makes it first (the service refuses either for a subscriber it does not know).
    oncall = notify.Subscriber(
        "oncall",
        subscriber_id="py-oncall",
        first_name="On-call",
        email="oncall@example.com",
        timezone="Europe/Paris",
        data={"team": "ops"},
    )
    notify.SubscriberCredentials(
        "oncall-slack",
        subscriber_id=oncall.subscriber_id,
        provider_id="slack",
        integration_identifier=slack.identifier,
        credentials=notify.ChannelCredentialsArgs(webhook_url=ONCALL_HOOK),
    )
    # No e-mail, office hours on Mondays. The service shows the email channel while an active
    # workflow has an email step, as welcome does, so it is compared.
    preferences = notify.SubscriberPreferences(
        "oncall-global",
        subscriber_id=oncall.subscriber_id,
        channels=notify.SubscriberPreferencesChannelsArgs(email=False),
        schedule=notify.PreferenceScheduleArgs(
            is_enabled=True,
            weekly_schedule=notify.PreferenceScheduleWeeklyScheduleArgs(
                monday=notify.PreferenceDayScheduleArgs(is_enabled=True, hours=[notify.PreferenceTimeRangeArgs(start="09:00 AM", end="05:00 PM")]),
            ),
        ),
    )
    incidents = notify.Topic("incidents", key="py-incidents", name="Incidents (Python)")
    subscription = notify.TopicSubscription(
        "oncall-incidents",
        topic=incidents.key,
        subscriber=oncall.subscriber_id,
        identifier="py-oncall-critical",
        name="On-call, critical only",
        preferences=[notify.TopicSubscriptionPreferenceArgs(workflow_id=welcome.workflow_id, condition=CRITICAL)],
    )
    # The tenant's Slack workspace, shared by the context (its id the Context's output, so the
    # context is the declared one, not one the service would make), and the on-call's channel in it.
    workspace = notify.ChannelConnection(
        "acme-slack",
        identifier="py-acme-slack",
        integration_identifier=slack.identifier,
        connection_mode=notify.ChannelConnectionConnectionMode.SHARED,
        context={"tenant": acme.context_id},
        workspace=notify.ChannelConnectionWorkspaceArgs(id="T0PYTHON", name="Acme (Python)"),
        auth=notify.ChannelConnectionAuthArgs(access_token=pulumi.Config().require_secret("slackToken")),
    )
    endpoint = notify.ChannelEndpoint(
        "oncall-alerts",
        identifier="py-oncall-alerts",
        subscriber_id=oncall.subscriber_id,
        integration_identifier=slack.identifier,
        connection_identifier=workspace.identifier,
        context={"tenant": acme.context_id},
        type=notify.ChannelEndpointType.SLACK_CHANNEL,
        endpoint=notify.ChannelEndpointEndpointArgs(channel_id="C0PYTHON"),
    )
    # An agent answering on the Slack integration, and the domain's `bot` address routed to it
    # (the environment is Development: the service takes agent links only there).
    bot = notify.Agent(
        "support-bot",
        identifier="py-support-bot",
        name="Support bot (Python)",
        bridge_url="https://bots.example.com/python",
        behavior=notify.AgentBehaviorArgs(subscriber_access=notify.AgentBehaviorSubscriberAccess.RESTRICTED),
        integrations=[slack.identifier],
    )
    mail = notify.Domain(
        "mail",
        name=DOMAIN,
        data={"owner": "ops"},
        routes={
            "support": notify.DomainRoutesArgs(type=notify.DomainRoutesType.WEBHOOK),
            "bot": notify.DomainRoutesArgs(type=notify.DomainRoutesType.AGENT, agent_id=bot.identifier),
        },
    )

    # A second environment, through an explicit provider instance.
    other = notify.Provider("second", api_url=second["url"], api_key=second["key"])
    mirror = notify.Integration(
        "second-sendgrid",
        identifier="py-sendgrid",
        name="SendGrid (second environment)",
        provider_id="sendgrid",
        channel=notify.Channel.EMAIL,
        active=True,
        opts=pulumi.ResourceOptions(provider=other),
    )

    pulumi.export("id", email.id)
    pulumi.export("integrationId", email.integration_id)
    pulumi.export("identifier", email.identifier)
    pulumi.export("channel", email.channel)
    pulumi.export("credentials", email.credentials)
    pulumi.export("stepIds", welcome.steps.apply(lambda steps: [s.step_id for s in steps]))
    pulumi.export("credId", cred.id)
    pulumi.export("aliceName", alice.first_name)
    pulumi.export("secondEnvironmentId", mirror.environment_id)
    pulumi.export("translationId", french.id)
    pulumi.export("contextKey", acme.key)
    pulumi.export("domainStatus", mail.status)
    pulumi.export("domainRecords", mail.expected_dns_records)
    pulumi.export("oncallId", oncall.id)
    pulumi.export("subscriptionId", subscription.id)
    pulumi.export("workspaceAuth", workspace.auth)
    # Each new kind's read function, given the declared resource's output, so it reads after the write.
    pulumi.export("agents", notify.get_agents_output(identifier=bot.identifier).agents)
    pulumi.export("oncallPreferences", notify.get_subscriber_preferences_output(subscriber_id=preferences.subscriber_id).global_)
    pulumi.export("incidentSubscriptions", notify.get_topic_subscriptions_output(topic_key=subscription.topic).subscriptions)
    pulumi.export("slackConnections", notify.get_channel_connections_output(integration_identifier=workspace.integration_identifier).connections)
    pulumi.export("workspaceEndpoints", notify.get_channel_endpoints_output(connection_identifier=endpoint.connection_identifier).endpoints)


if __name__ == "__main__":
    driver.run(lambda settings: lambda: program(settings["second"]), "notify-python")
