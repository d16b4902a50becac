"""A Python Automation API inline program on the generated SDK (pulumi_notify), driven by
test/e2e/python.test.ts through the venv of scripts/ensure-python-venv.

    python inline_program.py <up|preview|destroy>

reads its settings as JSON on stdin (workDir: a project directory whose Pulumi.yaml the test
wrote, with the backend and `plugins.providers`; pulumiRoot: the directory holding bin/pulumi;
config: the stack config) and writes one JSON object with what the operation reported on stdout.
The CLI's own output goes to stderr. The environment (PULUMI_HOME, backend, passphrase, PATH with
Node for the plugin) is the caller's.
"""

import json
import sys

import pulumi
import pulumi_notify as notify
from pulumi import automation as auto

SENDGRID_KEY = "SG.python-secret-sendgrid-key"


def program() -> None:
    email = notify.Integration(
        "sendgrid",
        identifier="py-sendgrid",
        name="SendGrid (Python)",
        provider_id="sendgrid",
        channel=notify.Channel.EMAIL,
        credentials=notify.IntegrationCredentialsArgs(api_key=SENDGRID_KEY, from_="no-reply@example.com"),
        active=True,
    )
    alice = notify.get_subscriber_output(subscriber_id="alice")
    pulumi.export("id", email.id)
    pulumi.export("integrationId", email.integration_id)
    pulumi.export("identifier", email.identifier)
    pulumi.export("channel", email.channel)
    pulumi.export("credentials", email.credentials)
    pulumi.export("aliceName", alice.first_name)


def main() -> None:
    op = sys.argv[1]
    settings = json.load(sys.stdin)
    stack = auto.create_or_select_stack(
        "test",
        project_name="notify-python",
        program=program,
        opts=auto.LocalWorkspaceOptions(
            work_dir=settings["workDir"],
            pulumi_command=auto.PulumiCommand(root=settings["pulumiRoot"], skip_version_check=True),
        ),
    )
    stack.set_all_config({k: auto.ConfigValue(v["value"], secret=bool(v.get("secret"))) for k, v in settings["config"].items()})
    log = lambda line: print(line, file=sys.stderr)  # noqa: E731
    if op == "up":
        res = stack.up(on_output=log)
        out = {
            "changes": res.summary.resource_changes,
            "outputs": {k: {"value": v.value, "secret": v.secret} for k, v in res.outputs.items()},
        }
    elif op == "preview":
        res = stack.preview(on_output=log, expect_no_changes=True)
        out = {"changes": res.change_summary}
    elif op == "destroy":
        res = stack.destroy(on_output=log)
        out = {"changes": res.summary.resource_changes}
    else:
        raise SystemExit(f"unknown operation {op}")
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
