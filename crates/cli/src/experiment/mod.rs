//! `midpoint experiment`: seed 000's procedure on a live MySQL or MariaDB server, with the model
//! beside it (native only). The pure parts (the plan, parsing the samples, the figures, the
//! report) are in `plan`, `sample` and `report`; the server session and the restore guard in
//! `server`; the live procedure (load, clients, samplers) in `procedure`; the simulated
//! ensemble in `model`.

pub mod conn;
pub mod host;
pub mod interrupt;
pub mod model;
pub mod plan;
pub mod procedure;
pub mod report;
pub mod restore;
pub mod sample;
pub mod server;
pub mod session;

use conn::Target;
use plan::Settings;
use restore::RestoreGuard;
use session::Killer;

/// What a run asked for besides the settings.
#[derive(Clone, Debug)]
pub struct Options {
    pub target: Target,
    pub settings: Settings,
    pub yes: bool,
    pub dry_run: bool,
    pub json: bool,
    pub svg: Option<String>,
    /// Run the model even when its memory estimate is over what this process may use.
    pub no_limit: bool,
}

/// Runs the experiment and returns what to print on stdout (the plan for a dry run, else the
/// table or the JSON). Every variable set is restored and the schema dropped (unless `--keep`)
/// on every path out of the live run: success, error and Ctrl-C.
pub fn run(o: &Options) -> Result<String, String> {
    // The last guard: whatever a driver or a parser put in a message, the URL's password is
    // taken out of it before it is shown. (The report names the server by its label, which
    // holds no password, and is left whole: a password that is also a word of it, "midpoint",
    // must not change the JSON.)
    run_inner(o).map_err(|e| o.target.scrub(&e))
}

fn run_inner(o: &Options) -> Result<String, String> {
    let s = &o.settings;
    s.validate()?;
    let mut c = conn::connect(&o.target)?;
    let info = server::inspect(&mut c, &o.target)?;
    let plan = plan::plan(s, &info.facts())?;
    if o.dry_run && o.json {
        let v = serde_json::json!({
            "dry_run": true,
            "server": {
                "address": info.address,
                "version": info.version,
                "engine": if info.mariadb { "mariadb" } else { "mysql" },
                "pool_pages": info.pool_pages,
                "pool_bytes": info.pool_bytes,
                "page_size": info.page_size,
                "other_schemas": info.other_schemas,
                "loopback": info.loopback,
                "left_changed": info.left_changed,
            },
            "settings": s,
            "plan": plan,
            "refused_without_yes": !info.other_schemas.is_empty() && !o.yes,
        });
        return serde_json::to_string_pretty(&v)
            .map_err(|e| e.to_string())
            .map(|t| t + "\n");
    }
    if o.dry_run {
        let mut out = format!(
            "dry run: nothing is created or set. {} ({}), {} pool pages of {} bytes\n",
            info.version, info.address, info.pool_pages, info.page_size
        );
        out += &plan.describe(s);
        for l in &info.left_changed {
            out += &format!("earlier  {}\n", l.describe(false));
        }
        if !info.other_schemas.is_empty() {
            out += &format!(
                "refused without --yes: the server holds other schemas ({})\n",
                info.other_schemas.join(", ")
            );
        }
        return Ok(out);
    }
    // The model's runs (one after another, every report kept; a second ensemble for the other
    // CPU model comes after the first) on the pool and the tables the plan sizes: refused before
    // the server is touched when their memory is over what this process may use.
    let planned = procedure::Measured {
        hot_pages: plan.hot_pages,
        scan_pages: plan.scan_pages,
        ..Default::default()
    };
    let model = model::params_for(&info, s, &plan, &planned, s.cpus.unwrap_or(0));
    let e = midpoint_core::cost::Estimate {
        wall_s: 0.0,
        ..midpoint_core::cost::estimate(&model).times_at_once(s.runs as usize, 1)
    };
    crate::progress::check(&e, "this experiment's model", o.no_limit)?;
    if !info.other_schemas.is_empty() && !o.yes {
        return Err(format!(
            "the server holds other schemas ({}); the experiment loads the server and evicts their pages from the buffer pool, so it expects a test server: rerun with --yes to go ahead",
            info.other_schemas.join(", ")
        ));
    }
    server::check_privileges(&mut c, &info)?;
    for l in &info.left_changed {
        eprintln!("experiment: {}", l.describe(false));
    }
    // What an earlier run left changed is restored before anything else (its marker says what).
    for (n, v) in restore::restore_left(&mut c, &info.left_changed)? {
        eprintln!("experiment: restored {n} = {v}, left changed by an earlier run");
    }
    drop(c);
    interrupt::catch_interrupts();
    let killer = Killer::new(&o.target);
    let mut guard = RestoreGuard::new(&o.target, &killer)?;
    let live = procedure::run(&o.target, &info, s, &plan, &mut guard, &killer, o.json);
    let restored = guard.restore();
    let dropped = if s.keep || !guard.created {
        Ok(false)
    } else {
        guard.drop_schema().map(|_| true)
    };
    drop(guard);
    interrupt::release_interrupts();
    let m = match live {
        Ok(m) => m,
        // The run's own error first, then whatever the restore or the drop could not do.
        Err(e) => {
            let also: Vec<String> = [restored.err(), dropped.err()]
                .into_iter()
                .flatten()
                .collect();
            return Err(if also.is_empty() {
                e
            } else {
                format!("{e}; {}", also.join("; "))
            });
        }
    };
    let restored = restored?;
    let dropped = dropped?;
    interrupt::check_interrupt()?;
    for (n, v) in &restored {
        eprintln!("experiment: restored {n} = {v}");
    }
    eprintln!(
        "experiment: {}; simulating {} runs",
        if dropped {
            format!("schema {} dropped", plan::SCHEMA)
        } else {
            format!("schema {} kept (--keep)", plan::SCHEMA)
        },
        s.runs
    );
    let f = report::figures(&m, s);
    let server_cpus = s.server_cpus.or(if info.loopback {
        host::available_cpus()
    } else {
        None
    });
    let (cpus, other) = model::cpu_models(s, server_cpus);
    let times: Vec<f64> = f.kept_by_s.iter().map(|x| x.0).collect();
    let sim = model::ensemble(
        &model::params_for(&info, s, &plan, &m, cpus),
        s.runs,
        &times,
    )?;
    let other = match other {
        Some((key, c)) => {
            eprintln!("experiment: and the other CPU model ({key}, cpus {c})");
            let p = model::params_for(&info, s, &plan, &m, c);
            Some((key, model::ensemble(&p, s.runs, &times)?))
        }
        None => None,
    };
    let other = other.as_ref().map(|(k, x)| (*k, x));
    if let Some(path) = &o.svg {
        let svg = report::svg(&f, &sim, other, s.warmup_s as f64)?;
        std::fs::write(path, svg).map_err(|e| format!("--svg {path}: {e}"))?;
    }
    Ok(if o.json {
        let v = report::json_report(
            &info,
            s,
            &plan,
            &m,
            &f,
            (&sim, other),
            &restored,
            dropped,
            server_cpus,
        );
        serde_json::to_string_pretty(&v).map_err(|e| e.to_string())? + "\n"
    } else {
        report::text_report(&info, s, &plan, &m, &f, &sim, other)
    })
}
