#!/usr/bin/env node
// npm run audit:prod: `npm audit --omit=dev`, failing on a high or critical advisory in a
// production dependency. When the registry's advisory service cannot be reached (no
// network, a proxy that refuses its POST), the check says so plainly and is skipped:
// exit 0, or 2 with --strict. --json prints a one-line summary last, for the test that
// runs this in CI (tests/server/attack-audit.test.ts).
import { spawnSync } from 'node:child_process';

const args = new Set(process.argv.slice(2));
const BLOCKING = ['critical', 'high'];

function runAudit() {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['audit', '--omit=dev', '--json', '--fetch-timeout=30000', '--fetch-retries=1'], {
    encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) return { status: 'unreachable', reason: `npm audit did not finish: ${result.error.message}` };
  let report;
  try {
    report = JSON.parse(result.stdout);
  } catch {
    return { status: 'unreachable', reason: `npm audit printed no report (exit ${result.status}): ${(result.stderr || result.stdout).trim().split('\n').slice(-3).join(' ')}` };
  }
  if (!report.vulnerabilities || !report.metadata?.vulnerabilities) {
    const detail = report.error?.summary || report.message || JSON.stringify(report).slice(0, 300);
    return { status: 'unreachable', reason: `the registry's advisory service did not answer: ${detail}` };
  }
  const counts = report.metadata.vulnerabilities;
  const advisories = Object.values(report.vulnerabilities)
    .filter((item) => BLOCKING.includes(item.severity))
    .map((item) => ({
      name: item.name,
      severity: item.severity,
      range: item.range,
      via: item.via.map((via) => (typeof via === 'string' ? via : `${via.title} (${via.url})`)),
      fix: item.fixAvailable === true ? 'npm audit fix' : item.fixAvailable ? `${item.fixAvailable.name}@${item.fixAvailable.version}${item.fixAvailable.isSemVerMajor ? ' (major)' : ''}` : 'none yet',
    }));
  return {
    status: advisories.length ? 'advisories' : 'ok',
    counts,
    dependencies: report.metadata.dependencies?.prod ?? report.metadata.dependencies?.total,
    advisories,
  };
}

const summary = runAudit();
if (summary.status === 'unreachable') {
  console.log(`SKIPPED: npm audit --omit=dev could not be run: ${summary.reason}`);
  console.log('Run `npm run audit:prod` where the npm registry is reachable.');
} else {
  const { critical = 0, high = 0, moderate = 0, low = 0, info = 0 } = summary.counts;
  console.log(`npm audit --omit=dev: ${critical} critical, ${high} high, ${moderate} moderate, ${low} low, ${info} info advisories in production dependencies.`);
  for (const item of summary.advisories) {
    console.log(`- ${item.severity}: ${item.name} ${item.range}; fix: ${item.fix}`);
    for (const via of item.via) console.log(`    ${via}`);
  }
}
if (args.has('--json')) console.log(JSON.stringify(summary));
process.exit(summary.status === 'advisories' ? 1 : summary.status === 'unreachable' && args.has('--strict') ? 2 : 0);
