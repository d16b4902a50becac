// The program the workflow's `pulumi preview` and `pulumi up` run. The dashboard's part is
// notify.generated.ts (notify-export's), the stack's own part program.ts, which loads it.
import { gitops } from "./program";

export = gitops();
