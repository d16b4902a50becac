"""One stack, two environments (Python, through the native plugin).

The stack creates a Staging environment, builds an explicit provider from the API key the service
gives it, and declares a workflow and an integration inside it, beside an integration of the
environment the default provider's key belongs to (`notify:apiUrl`, secret `notify:apiKey`).
The engine orders it all: the provider waits for the environment's key, the objects for the
provider, the workflow (an email) for the integration it sends through, so the first `pulumi up`
on empty environments warns about nothing. Creating an environment through the API needs a plan with environment management
(Business or above); on smaller plans create it in the dashboard and import or adopt it.

    pulumi config set notify:apiUrl https://api.example.com
    pulumi config set --secret notify:apiKey <key of the main environment>
    pulumi config set --secret sendgridKey <SendGrid API key>
    pulumi up
"""

import pulumi
import pulumi_notify as notify


def program() -> None:
    config = pulumi.Config()
    sendgrid_key = config.get_secret("sendgridKey") or pulumi.Output.secret("SG.example-key")

    # The environment the default provider's key belongs to.
    notify.Integration(
        "sendgrid",
        identifier="sendgrid",
        name="SendGrid",
        provider_id="sendgrid",
        channel=notify.Channel.EMAIL,
        credentials=notify.IntegrationCredentialsArgs(api_key=sendgrid_key, from_="no-reply@example.com"),
        active=True,
    )

    # A new environment, and a provider of its own from the key the service made for it.
    staging = notify.Environment("staging", name="Staging", color="#f39c12")
    staging_provider = notify.Provider(
        "staging",
        api_url=pulumi.Config("notify").require("apiUrl"),
        api_key=staging.api_keys.apply(lambda keys: keys[0]),
    )
    in_staging = pulumi.ResourceOptions(provider=staging_provider)

    staging_sendgrid = notify.Integration(
        "staging-sendgrid",
        identifier="sendgrid",
        name="SendGrid (staging)",
        provider_id="sendgrid",
        channel=notify.Channel.EMAIL,
        credentials=notify.IntegrationCredentialsArgs(api_key=sendgrid_key, from_="staging@example.com"),
        active=True,
        primary=True,
        opts=in_staging,
    )
    welcome = notify.Workflow(
        "staging-welcome",
        workflow_id="welcome",
        name="Welcome",
        active=True,
        steps=[
            notify.WorkflowStepArgs(name="Email", type=notify.WorkflowStepKind.EMAIL, control_values={"subject": "Welcome", "body": "<p>Welcome</p>"}),
        ],
        # Its email step needs the environment's primary email integration: created first.
        opts=pulumi.ResourceOptions(provider=staging_provider, depends_on=[staging_sendgrid]),
    )

    pulumi.export("stagingEnvironmentId", staging.id)
    pulumi.export("stagingSlug", staging.slug)
    pulumi.export("stagingKey", staging.api_keys.apply(lambda keys: keys[0]))
    pulumi.export("welcomeWorkflowId", welcome.id)


if __name__ == "__main__":
    program()
