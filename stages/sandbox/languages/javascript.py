"""JavaScript: run by Node.js (Debian's nodejs) as a stdin / stdout program."""
from . import Language, register_language

EXAMPLE = """const [a, b] = require("fs").readFileSync(0, "utf8").trim().split(/\\s+/).map(Number);
console.log(a + b);
"""

JAVASCRIPT = register_language(Language("javascript", fences=("javascript", "js", "node"), source_file="solution.js",
                                        example=EXAMPLE, run=("/usr/bin/node", "solution.js"),
                                        needs="Node.js (`apt-get install nodejs`)"))
