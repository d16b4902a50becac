"""A Python Automation API inline program on the generated SDK (pulumi_notify), driven by
test/e2e/python.test.ts through the venv of scripts/ensure-python-venv.

    python inline_program.py <up|preview|preview-refresh|destroy>

reads its settings as JSON on stdin (workDir: a project directory whose Pulumi.yaml the test
wrote, with the backend and `plugins.providers`; pulumiRoot: the directory holding bin/pulumi;
config: the stack config; second: `{url, key}` of a second environment, for an explicit provider)
and writes one JSON object with what the operation reported on stdout. The CLI's own output goes
to stderr. The environment (PULUMI_HOME, backend, passphrase, PATH with Node for the plugin) is
the caller's.

The program declares the three resources through the default provider (the stack config), calls
a function, and declares one more integration through an explicit provider of the second
environment.
"""

import json
import sys

import pulumi
import pulumi_notify as notify
from pulumi import automation as auto

SENDGRID_KEY = "SG.python-secret-sendgrid-key"
SLACK_HOOK = "https://hooks.slack.example/services/T000/B000/python-hook"


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


def detailed_diffs(events: list) -> dict:
    """Per resource name: the step's operation and its detailed diff (property to diff kind)."""
    diffs = {}
    for e in events:
        pre = e.resource_pre_event
        if pre is None:
            continue
        m = pre.metadata
        if m.op in ("same", "refresh") or m.type == "pulumi:pulumi:Stack" or m.type.startswith("pulumi:providers:"):
            continue
        name = m.urn.split("::")[-1]
        diffs[name] = {"op": str(m.op.value if hasattr(m.op, "value") else m.op), "detailed": {k: str(d.diff_kind.value) for k, d in (m.detailed_diff or {}).items()}}
    return diffs


def main() -> None:
    op = sys.argv[1]
    settings = json.load(sys.stdin)
    stack = auto.create_or_select_stack(
        "test",
        project_name="notify-python",
        program=lambda: program(settings["second"]),
        opts=auto.LocalWorkspaceOptions(
            work_dir=settings["workDir"],
            pulumi_command=auto.PulumiCommand(root=settings["pulumiRoot"], skip_version_check=True),
        ),
    )
    stack.set_all_config({k: auto.ConfigValue(v["value"], secret=bool(v.get("secret"))) for k, v in settings["config"].items()})
    log = lambda line: print(line, file=sys.stderr)  # noqa: E731
    if op in ("up", "up-refresh"):
        res = stack.up(on_output=log, refresh=op == "up-refresh")
        out = {
            "changes": res.summary.resource_changes,
            "outputs": {k: {"value": v.value, "secret": v.secret} for k, v in res.outputs.items()},
        }
    elif op == "preview":
        res = stack.preview(on_output=log, expect_no_changes=True)
        out = {"changes": res.change_summary}
    elif op == "preview-refresh":
        events: list = []
        res = stack.preview(on_output=log, refresh=True, diff=True, on_event=events.append)
        out = {"changes": res.change_summary, "diffs": detailed_diffs(events), "stdout": res.stdout}
    elif op == "destroy":
        res = stack.destroy(on_output=log)
        out = {"changes": res.summary.resource_changes}
    else:
        raise SystemExit(f"unknown operation {op}")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
