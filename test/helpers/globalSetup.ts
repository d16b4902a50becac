import { pulumiCliPath } from "../../scripts/workspace";
import { buildNodejsSdk } from "../../scripts/nodejs-sdk";

/**
 * Makes sure the pinned Pulumi CLI exists (building it on first run) and shares its path with the
 * workers, and that the typed TypeScript SDK (sdk/nodejs) is compiled (once per change of it).
 */
export default function setup(): void {
  pulumiCliPath();
  buildNodejsSdk();
}
