/**
 * The stack config secrets the Python and Go end-to-end programs (test/e2e/python, test/e2e/go)
 * read besides the connection, for the tests that run those programs without asserting the values
 * (the plugin binary's, the release rehearsal's). Keyed by the project, as Pulumi reads them.
 */
export function programSecrets(project: string, slackToken = "xoxb-program-workspace-token"): Record<string, { value: string; secret: true }> {
  return { [`${project}:slackToken`]: { value: slackToken, secret: true } };
}
