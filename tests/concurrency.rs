//! Readers never see a partial or mixed index while `build` rewrites the
//! same path over and over: each reader maps the old file or the new one.

mod common;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use common::{bin, Scratch};

#[test]
fn readers_see_whole_indexes_during_rebuilds() {
    let s = Scratch::new();
    let small = s.write("small.txt", b"game\ngames\namalgam\nglam\nmegaplex\nride\ndire\n");
    let large = s.write("large.txt", &std::fs::read(common::repo().join("tests/data/golden-words.txt")).unwrap());
    let idx = s.path("shared.hoard");
    let build = |list: &std::path::Path| {
        let out = bin().args(["build", list.to_str().unwrap(), "-o", idx.to_str().unwrap()]).output().unwrap();
        assert!(out.status.success(), "{}", common::stderr(&out));
    };
    build(&small);
    // The golden list's `I` is a proper noun, skipped.
    let valid_counts = [7u64, 65];
    let stop = Arc::new(AtomicBool::new(false));
    let readers: Vec<_> = (0..3)
        .map(|r| {
            let (stop, idx) = (stop.clone(), idx.clone());
            std::thread::spawn(move || {
                let mut runs = 0;
                while !stop.load(Ordering::Relaxed) || runs < 5 {
                    let args: &[&str] = if r == 0 { &["verify", "--json"] } else { &["info", "--json"] };
                    let out = bin().arg("--index").arg(&idx).args(args).output().unwrap();
                    assert!(out.status.success(), "reader saw a bad index: {}", common::stderr(&out));
                    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
                    if r != 0 {
                        assert!(valid_counts.contains(&v["words"].as_u64().unwrap()), "mixed index: {v}");
                    }
                    runs += 1;
                }
                runs
            })
        })
        .collect();
    for i in 0..40 {
        build(if i % 2 == 0 { &large } else { &small });
    }
    stop.store(true, Ordering::Relaxed);
    let runs: usize = readers.into_iter().map(|r| r.join().expect("reader")).sum();
    eprintln!("40 rebuilds, {runs} reader runs");
    let leftovers = std::fs::read_dir(s.dir.path())
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().contains(".tmp."))
        .count();
    assert_eq!(leftovers, 0, "no temporary files left behind");
}
