// The program `pulumi up` runs; the resources are declared in program.ts.
import { quickstart } from "./program";

export = quickstart();
