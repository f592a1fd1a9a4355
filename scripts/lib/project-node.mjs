// The project runs on the Node.js it installs (the `node` package in package-lock.json,
// within package.json's `engines`), which npm scripts find first on their PATH. A script
// started by hand with the machine's own `node` stops here, saying how to run it instead.
import { readFileSync } from 'node:fs';

export function requireProjectNode() {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'));
  const wanted = lock.packages['node_modules/node']?.version;
  const major = (version) => version.replace(/^v/, '').split('.')[0];
  if (wanted && major(process.version) !== major(wanted)) {
    console.error(`\nThis is Node.js ${process.version}; the project runs on ${wanted}, from its own node_modules.`);
    console.error("Run it through npm ('npm start', 'npm test', 'npm run <command>'), or with node_modules/.bin/node.\n");
    process.exit(1);
  }
}
