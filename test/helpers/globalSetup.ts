import { pulumiCliPath } from "../../scripts/workspace";

/** Makes sure the pinned Pulumi CLI exists (building it on first run) and shares its path with the workers. */
export default function setup(): void {
  pulumiCliPath();
}
