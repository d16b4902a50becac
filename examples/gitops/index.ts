// The program the workflow's `pulumi preview` and `pulumi up` run; resources are in program.ts.
import { gitops } from "./program";

export = gitops();
