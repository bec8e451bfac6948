//! The one-run summary printed by `midpoint run --preset <write-path preset>`.

use midpoint_core::metrics::WriteReport;

/// A one-run summary for `run --preset <write preset>`.
pub fn report_text(name: &str, r: &WriteReport) -> String {
    let mut s = format!(
        "preset {name}: {} threads, {} CPUs, {:?}\n",
        r.params.threads, r.params.cpus, r.params.mix
    );
    s.push_str(&format!(
        "transactions/s {:.0}, queries/s {:.0}, latency {:.2} ms\n",
        r.tps, r.qps, r.latency_ms
    ));
    if r.params.scan_table_pages > 0 && r.params.scan_s > 0 {
        s.push_str(&format!(
            "with the scan: transactions/s {:.0} (loss {:.1} %)\n",
            r.tps_with_scan,
            r.scan_loss * 100.0
        ));
    }
    s.push_str(&format!(
        "hot set kept {:.1} %, mean free {:.0}, dirty {:.1} %, max checkpoint age {:.1} % of redo\n",
        r.hot_kept * 100.0,
        r.free_mean,
        r.dirty_pct_mean,
        r.checkpoint_age_pct_max
    ));
    s.push_str(&format!(
        "dblwr: {} writes ({} batch, {} single-page), avg {:.2} ms, {} pages, segment wait {:.0} ms\n",
        r.dblwr.writes,
        r.dblwr.batch_writes,
        r.dblwr.single_writes,
        r.dblwr_avg_write_ms,
        r.dblwr.pages,
        r.dblwr.segment_wait_us as f64 / 1000.0
    ));
    s.push_str(&format!(
        "pages written {} (LRU {}, flush list {}, single {}), wait_free/s {:.1}, page write waits/s {:.1}, log waits/s {:.1}\n",
        r.write.pages_written,
        r.write.lru_flushed,
        r.write.list_flushed,
        r.write.single_page_flushes,
        r.wait_free_per_s,
        r.page_write_waits_per_s,
        r.log_waits_per_s
    ));
    s.push_str(&format!(
        "device: {} reads (mean {:.0} µs), {} writes, {} fsyncs, mean latency {:.0} µs; {} events\n",
        r.device.reads,
        r.device.read_latency_us as f64 / r.device.reads.max(1) as f64,
        r.device.writes,
        r.device.fsyncs,
        r.device.total_latency_us as f64 / (r.device.reads + r.device.writes + r.device.fsyncs).max(1) as f64,
        r.events
    ));
    s
}
