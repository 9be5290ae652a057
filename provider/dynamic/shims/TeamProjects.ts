/** The `__provider` of TeamProjects (see ./shim.ts). Old state requires this module by name: keep its path. */
import { shim } from "./shim";

export = shim("TeamProjects");
