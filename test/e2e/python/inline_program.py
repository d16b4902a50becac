"""A Python Automation API inline program on the generated SDK (pulumi_notify), driven by
test/e2e/python.test.ts through the venv of scripts/ensure-python-venv.

    python inline_program.py <up|up-refresh|preview|preview-refresh|destroy>

with the settings of driver.py on stdin, plus second: `{url, key}` of a second environment, for
an explicit provider.

The program declares integrations, a workflow with translation on and its French translation
(the workflow's output as its resource id), subscriber credentials, a context, an inbound-email
domain with a route and a layout (the environment's first, hence its default) through the default
provider (the stack config), calls a function, and declares one more integration through an
explicit provider of the second environment.
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
    mail = notify.Domain(
        "mail",
        name=DOMAIN,
        data={"owner": "ops"},
        routes={"support": notify.DomainRoutesArgs(type=notify.DomainRoutesType.WEBHOOK)},
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


if __name__ == "__main__":
    driver.run(lambda settings: lambda: program(settings["second"]), "notify-python")
