// The /healthz prober's own thread (bench/load/health-probe.ts starts it): plain
// JavaScript, since a worker thread does not get the tsx loader, and a thread so that the
// load generator's busy event loop never delays a probe or its clock.
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

const { url, everyMs } = workerData;
const base = new URL(url);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const gaps = { probes: 0, failed: 0, worstGapMs: 0, slowestMs: 0, p50Ms: 0, p99Ms: 0, over50Ms: 0, slowestAtS: 0 };
const began = performance.now();
const answers = [];
let running = true;

function probe() {
  const started = performance.now();
  return new Promise((resolve) => {
    const request = http.get({ host: base.hostname, port: base.port, path: '/healthz', agent }, (response) => {
      response.resume();
      response.on('end', () => resolve({ status: response.statusCode ?? 0, ms: performance.now() - started }));
    });
    request.setTimeout(30_000, () => request.destroy(new Error('timed out')));
    request.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
  });
}

parentPort.on('message', () => (running = false));
let last = performance.now();
while (running) {
  const { status, ms } = await probe();
  const now = performance.now();
  gaps.probes++;
  if (status !== 200) gaps.failed++;
  if (ms > gaps.slowestMs) gaps.slowestAtS = (now - ms - began) / 1000;
  gaps.slowestMs = Math.max(gaps.slowestMs, ms);
  answers.push(ms);
  if (ms > 50) gaps.over50Ms++;
  gaps.worstGapMs = Math.max(gaps.worstGapMs, now - last);
  last = now;
  await new Promise((resolve) => setTimeout(resolve, everyMs));
}
agent.destroy();
answers.sort((a, b) => a - b);
const at = (share) => answers[Math.min(answers.length - 1, Math.floor(share * answers.length))] ?? 0;
gaps.p50Ms = at(0.5);
gaps.p99Ms = at(0.99);
parentPort.postMessage(gaps);
