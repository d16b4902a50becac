// The program `pulumi up` runs for every stack; the resources are declared in program.ts.
import { environment } from "./program";

export = environment();
