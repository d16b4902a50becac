/** What a preview run reports of each step: its renderings, side by side (index.ts makes them, summary.ts writes them up). */
/** The side of a step: as the service has it (`current`), or before and after a change. */
export type SideName = "current" | "before" | "after";

/** One rendering of a step, or why there is none. */
export interface Side {
  /** `rendered`; `empty`: the service rendered nothing (a template error or an incomplete step); `absent`: no such step on this side; `unavailable`: cannot be rendered (see `note`). */
  status: "rendered" | "empty" | "absent" | "unavailable";
  note?: string;
  /** The service's `preview`: email `{subject, body}`, the other channels their fields. */
  preview?: Record<string, unknown>;
  /** The HTML file, relative to the output directory. */
  html?: string;
  /** The PNG screenshot (email steps), relative to the output directory. */
  png?: string;
}

/** One step of a workflow and its renderings. */
export interface StepReport {
  workflowId: string;
  stepId: string;
  name: string;
  type: string;
  sides: Partial<Record<SideName, Side>>;
  /** When comparing: whether before and after differ. */
  changed?: boolean;
}
