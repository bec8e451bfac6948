//! Processor sharing over a number of CPUs, on the virtual clock.
//!
//! Each client thread (every lookup thread, and the scan) alternates between waiting (for a page
//! read, a retry or a pause) and a CPU burst of a known length. While `n` bursts are runnable on
//! `c` CPUs, each progresses at rate `min(1, c / n)`: with more runnable threads than CPUs they
//! share them equally, as a time-sharing scheduler does on average. This replaces the seed-000
//! model's single `scan_interference` factor when `Params::cpus` is set.
//!
//! The scheduler is exact for processor sharing: the running set changes only when a burst
//! arrives (its wait ends) or completes, and both are events, so between two events every rate is
//! constant. Work is kept in µs as `f64`; event times are whole µs, rounded up, so a burst never
//! completes early. The arithmetic is deterministic.

use crate::clock::Micros;

/// A burst that has not finished: runnable from `start`, with `work` µs of CPU left.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Burst {
    start: Micros,
    work: f64,
}

/// Work below this (µs) counts as done, absorbing rounding.
const EPS: f64 = 1e-6;

/// The CPUs and the bursts of every thread (at most one burst per thread).
#[derive(Clone, Debug)]
pub struct Cpu {
    cpus: f64,
    bursts: Vec<Option<Burst>>,
    /// The time up to which every running burst's work has been charged.
    last: Micros,
}

impl Cpu {
    /// `cpus` CPUs (at least 1) shared by `threads` threads, starting at `now`.
    pub fn new(cpus: u32, threads: usize, now: Micros) -> Cpu {
        Cpu {
            cpus: cpus.max(1) as f64,
            bursts: vec![None; threads],
            last: now,
        }
    }

    /// Thread `thread` will need `work_us` µs of CPU from `start` on (after its wait).
    pub fn submit(&mut self, thread: usize, start: Micros, work_us: f64) {
        debug_assert!(self.bursts[thread].is_none());
        self.bursts[thread] = Some(Burst {
            start: start.max(self.last),
            work: work_us.max(0.0),
        });
    }

    /// Whether thread `thread` has a burst (waiting or running).
    pub fn busy(&self, thread: usize) -> bool {
        self.bursts[thread].is_some()
    }

    fn running_at(&self, t: Micros) -> usize {
        self.bursts
            .iter()
            .filter(|b| matches!(b, Some(b) if b.start <= t))
            .count()
    }

    fn rate(&self, n: usize) -> f64 {
        if n == 0 {
            1.0
        } else {
            (self.cpus / n as f64).min(1.0)
        }
    }

    /// When the next burst arrives or completes, if any.
    pub fn next_event(&self) -> Option<Micros> {
        let n = self.running_at(self.last);
        let rate = self.rate(n);
        let mut best: Option<Micros> = None;
        for b in self.bursts.iter().flatten() {
            let t = if b.start > self.last {
                b.start
            } else if b.work <= EPS {
                self.last
            } else {
                self.last + (b.work / rate).ceil() as Micros
            };
            best = Some(best.map_or(t, |x: Micros| x.min(t)));
        }
        best
    }

    /// Charges every running burst for the time up to `to`, taking arrivals on the way.
    pub fn advance(&mut self, to: Micros) {
        while self.last < to {
            // The next arrival strictly after `last` splits the interval.
            let next_arrival = self
                .bursts
                .iter()
                .flatten()
                .filter(|b| b.start > self.last)
                .map(|b| b.start)
                .min();
            let until = next_arrival.map_or(to, |a| a.min(to));
            let rate = self.rate(self.running_at(self.last));
            let dt = (until - self.last) as f64 * rate;
            let last = self.last;
            for b in self.bursts.iter_mut().flatten() {
                if b.start <= last {
                    b.work -= dt;
                }
            }
            self.last = until;
        }
    }

    /// The lowest-numbered thread whose burst has finished by now (it is removed), if any.
    pub fn take_completed(&mut self) -> Option<usize> {
        let last = self.last;
        let i = self
            .bursts
            .iter()
            .position(|b| matches!(b, Some(b) if b.start <= last && b.work <= EPS))?;
        self.bursts[i] = None;
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run_to_completion(cpu: &mut Cpu) -> Vec<(usize, Micros)> {
        let mut done = Vec::new();
        while let Some(t) = cpu.next_event() {
            cpu.advance(t);
            while let Some(i) = cpu.take_completed() {
                done.push((i, t));
            }
        }
        done
    }

    #[test]
    fn one_cpu_two_equal_bursts_finish_together_at_twice_the_time() {
        let mut cpu = Cpu::new(1, 2, 0);
        cpu.submit(0, 0, 100.0);
        cpu.submit(1, 0, 100.0);
        assert_eq!(run_to_completion(&mut cpu), vec![(0, 200), (1, 200)]);
    }

    #[test]
    fn enough_cpus_means_no_slowdown_and_arrivals_share_later() {
        let mut cpu = Cpu::new(2, 3, 0);
        cpu.submit(0, 0, 100.0);
        cpu.submit(1, 0, 100.0);
        assert_eq!(run_to_completion(&mut cpu), vec![(0, 100), (1, 100)]);
        // Three bursts on two CPUs, one arriving late: 0..50 two run at rate 1, then three at 2/3.
        let mut cpu = Cpu::new(2, 3, 0);
        cpu.submit(0, 0, 100.0);
        cpu.submit(1, 0, 100.0);
        cpu.submit(2, 50, 100.0);
        let d = run_to_completion(&mut cpu);
        // Threads 0 and 1 have 50 left at t=50, done at 50 + 75 = 125; thread 2 then has
        // 100 - 50 = 50 left at rate 1: done at 175.
        assert_eq!(d, vec![(0, 125), (1, 125), (2, 175)]);
    }

    #[test]
    fn zero_work_completes_at_its_start() {
        let mut cpu = Cpu::new(1, 1, 0);
        cpu.submit(0, 40, 0.0);
        assert_eq!(run_to_completion(&mut cpu), vec![(0, 40)]);
    }
}
