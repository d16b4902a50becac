/**
 * The connection as a program process sees it (functions and the resource classes run there):
 * the stack config `notify:*`, then the environment variables.
 */
import * as pulumi from "@pulumi/pulumi";
import { providerSettings, settingSources, settingsFromConfig, type ConnectionSettings } from "./config";
import { checkConnection } from "./connectionCheck";

/** The program's connection settings. */
export function programConnection(): ConnectionSettings {
  // runtime.getConfig reads the raw value without the secret-access warning of Config.get.
  return { ...providerSettings(), ...settingsFromConfig((key) => pulumi.runtime.getConfig(key)) };
}

/**
 * The program's connection, checked once before its first resource registers
 * (connectionCheck.ts): a promise every registration of the dynamic front end waits on.
 */
export function programConnectionChecked(): Promise<void> {
  return checkConnection(programConnection(), settingSources("apiKey"));
}
