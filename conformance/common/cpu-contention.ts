// How contended the CPU is right now, measured rather than guessed: a busy loop runs on this thread
// until it has used a fixed amount of CPU time, and the wall time that took is divided by it. 1 means
// the thread had a core to itself; beside six CPU-bound processes on two cores, about 3.5 (each
// runnable thread gets its share). The load average cannot tell this: it lags by a minute, and counts
// what waits on the disk too.

/** CPU time (ms) one sample spends: long enough to span the scheduler's slices, short beside a run. */
const sampleCpuMs = 40;

function oneSample(): number {
  const wallStart = performance.now();
  const cpuStart = process.cpuUsage();
  let usedMicros = 0;
  while (usedMicros < sampleCpuMs * 1000) {
    for (let spin = 0; spin < 20_000; spin++);
    const used = process.cpuUsage(cpuStart);
    usedMicros = used.user + used.system;
  }
  return (performance.now() - wallStart) / (usedMicros / 1000);
}

/** The median of `samples` measurements, a short pause between them so one burst of other work does not decide. */
export async function measureCpuContention(samples = 3): Promise<number> {
  const measured: number[] = [];
  for (let index = 0; index < samples; index++) {
    measured.push(oneSample());
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return measured.sort((a, b) => a - b)[Math.floor(measured.length / 2)];
}
