/**
 * The stack config secrets the Python and Go end-to-end programs (test/e2e/python, test/e2e/go)
 * read besides the connection, keyed by the project as Pulumi reads them: the tests that assert the
 * token pass their own, those that run the programs without asserting it (the plugin binary's, the
 * release rehearsal's) take the default.
 */
export function programSecrets(project: string, slackToken = "xoxb-program-workspace-token"): Record<string, { value: string; secret: true }> {
  return { [`${project}:slackToken`]: { value: slackToken, secret: true } };
}
