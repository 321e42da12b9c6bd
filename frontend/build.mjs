// Copies the pinned front-end libraries into the Django static tree.
// The copies are committed so that deploying the Python app never needs Node.
import { copyFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const dest = join(here, "..", "zfsplanner", "static", "vendor");
mkdirSync(dest, { recursive: true });
const files = [
  ["node_modules/htmx.org/dist/htmx.min.js", "htmx.min.js"],
  ["node_modules/chart.js/dist/chart.umd.js", "chart.umd.js"],
];
for (const [src, name] of files) {
  copyFileSync(join(here, src), join(dest, name));
  console.log(`copied ${src} -> zfsplanner/static/vendor/${name}`);
}
