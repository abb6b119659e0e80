//! `make bench`: wordhoard's build and every query of SPEC, timed as whole
//! processes and through the library, each next to a straightforward
//! implementation (read the text list, scan it) measured in the same run.
//!
//! Usage: wordhoard-bench [--runs N] [--out FILE]
//!        wordhoard-bench naive QUESTION LIST   (one baseline answer)

mod naive;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wordhoard_query::{
    anigram::{self, Anigrams},
    bee, boxed, Index, LetterSet,
};

/// The budgets of SPEC.
const QUERY_BUDGET_MS: f64 = 5.0;
/// `boxed generate` tries boxes until one fits: its own budget.
const BOXED_GENERATE_BUDGET_MS: f64 = 50.0;
const BUILD_BUDGET_MS: f64 = 150.0;
const BIG_BUILD_BUDGET_MS: f64 = 500.0;
const RSS_BUDGET_KB: u64 = 10 * 1024;

struct Query {
    name: &'static str,
    args: &'static [&'static str],
    naive: Option<&'static str>,
    /// Its time budget in ms (with the 10 MB one), if it has one.
    budget: Option<f64>,
}

const QUERIES: &[Query] = &[
    Query { name: "info", args: &["info"], naive: None, budget: Some(QUERY_BUDGET_MS) },
    Query { name: "verify", args: &["verify"], naive: None, budget: Some(QUERY_BUDGET_MS) },
    // Rebuilds every table: as long as a build, whose budget it has.
    Query { name: "verify --deep", args: &["verify", "--deep"], naive: None, budget: Some(BUILD_BUDGET_MS) },
    Query {
        name: "bee solve",
        args: &["bee", "solve", "aeginrt", "--center", "r"],
        naive: Some("bee-solve"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "bee report",
        args: &["bee", "report", "aeginrt", "--center", "r"],
        naive: Some("bee-solve"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query { name: "bee best", args: &["bee", "best"], naive: Some("bee-best"), budget: Some(QUERY_BUDGET_MS) },
    Query {
        name: "bee best --exclude ''",
        args: &["bee", "best", "--exclude", ""],
        naive: Some("bee-best-s"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query { name: "bee stats", args: &["bee", "stats"], naive: Some("bee-stats"), budget: Some(QUERY_BUDGET_MS) },
    Query {
        name: "bee generate",
        args: &["bee", "generate", "--seed", "1"],
        naive: Some("bee-best"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "bee hints",
        args: &["bee", "hints", "aeginrt", "--center", "r"],
        naive: Some("bee-hints"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "boxed solve",
        args: &["boxed", "solve", "riu", "pgh", "lcs", "yao"],
        naive: Some("boxed-2"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query { name: "find 'qu*'", args: &["find", "qu*"], naive: None, budget: Some(QUERY_BUDGET_MS) },
    Query { name: "find 'c?t'", args: &["find", "c?t"], naive: None, budget: Some(QUERY_BUDGET_MS) },
    Query { name: "find '*[^aeiou]ly' (no prefix)", args: &["find", "*[^aeiou]ly"], naive: None, budget: None },
    Query { name: "find '?*ing' (a letter, then any)", args: &["find", "?*ing"], naive: None, budget: None },
    Query { name: "find '?????ing' (one length)", args: &["find", "?????ing"], naive: None, budget: None },
    Query {
        name: "anagram 'retain??' (2 blanks)",
        args: &["anagram", "retain??"],
        naive: None,
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "anagram 'granite?' --sub",
        args: &["anagram", "granite?", "--sub"],
        naive: None,
        budget: Some(QUERY_BUDGET_MS),
    },
    // Named by issue 30: 7,870 words of up to 8 letters, 50 shown.
    Query {
        name: "anagram 'retain??' --sub",
        args: &["anagram", "retain??", "--sub"],
        naive: None,
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "bee check",
        args: &["bee", "check", "aeginrt", "--center", "r", "granite", "tearing", "rating", "reign", "tiara"],
        naive: Some("bee-hints"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "boxed generate",
        args: &["boxed", "generate", "--seed", "1"],
        naive: None,
        budget: Some(BOXED_GENERATE_BUDGET_MS),
    },
    Query {
        name: "boxed generate --common-only",
        args: &["boxed", "generate", "--seed", "1", "--common-only"],
        naive: None,
        budget: Some(BOXED_GENERATE_BUDGET_MS),
    },
    Query {
        name: "boxed solve --max-words 3",
        args: &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "3"],
        naive: Some("boxed-3"),
        budget: None,
    },
    Query {
        name: "boxed solve --max-words 4 --limit 10",
        args: &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "4", "--limit", "10"],
        naive: None,
        budget: None,
    },
    Query {
        name: "boxed solve --max-words 5",
        args: &["boxed", "solve", "riu", "pgh", "lcs", "yao", "--max-words", "5"],
        naive: None,
        budget: None,
    },
    Query {
        name: "anagram --words 'dormitory windows' (16 letters)",
        args: &["anagram", "--words", "dormitory windows"],
        naive: None,
        budget: None,
    },
    Query {
        name: "anigram unscramble",
        args: &["anigram", "unscramble", "deir"],
        naive: Some("unscramble"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "anigram longest",
        args: &["anigram", "longest"],
        naive: Some("anigrams"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "anigram count",
        args: &["anigram", "count"],
        naive: Some("anigrams"),
        budget: Some(QUERY_BUDGET_MS),
    },
    Query {
        name: "anigram count 3->8",
        args: &["anigram", "count", "--start-len", "3", "--goal-len", "8"],
        naive: None,
        budget: Some(QUERY_BUDGET_MS),
    },
    Query { name: "anigram top", args: &["anigram", "top"], naive: Some("anigrams"), budget: Some(QUERY_BUDGET_MS) },
    Query {
        name: "anigram generate",
        args: &["anigram", "generate", "--seed", "1"],
        naive: Some("anigrams"),
        budget: Some(QUERY_BUDGET_MS),
    },
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("naive") {
        naive_answer(&args[1], &args[2]);
        return;
    }
    // `peak-rss PROGRAM ARGS...`: runs it once and prints its peak RSS in
    // KB, measured from this small process (see `Bench::peak_rss`).
    if args.first().map(String::as_str) == Some("peak-rss") {
        let rest: Vec<&str> = args[2..].iter().map(String::as_str).collect();
        println!("{}", run_with_rusage(Path::new(&args[1]), &rest).1);
        return;
    }
    let runs = flag(&args, "--runs").map_or(11, |v| v.parse().expect("--runs takes a number"));
    let out = flag(&args, "--out").map(PathBuf::from);
    let bench = Bench::new(runs);
    // `--against BIN`: every query of the table, this build and another
    // (an earlier commit's), in alternating runs: paired ratios only.
    let report = match flag(&args, "--against") {
        Some(other) => bench.against(Path::new(other)),
        // `--big`: only the 10-million-word section.
        None if args.iter().any(|a| a == "--big") => bench.header() + &bench.big(),
        // `--in-process`: only the library's figures on enable1.
        None if args.iter().any(|a| a == "--in-process") => bench.header() + &bench.in_process_only(),
        // `--builds`: only the builds against `sort -u`.
        None if args.iter().any(|a| a == "--builds") => bench.header() + &bench.builds_against_sort(),
        None => bench.run(),
    };
    print!("{report}");
    if let Some(out) = out {
        std::fs::write(&out, &report).expect("write the report");
        eprintln!("(also written to {})", out.display());
    }
}

/// How many words the generated list of [`Bench::big`] has.
const BIG_WORDS: usize = 10_000_000;

/// The queries of [`Bench::big`] (issue 30, item 4).
const BIG_QUERIES: [&[&str]; 6] = [
    &["bee", "solve", "aeginrt", "--center", "r"],
    &["find", "c?t"],
    &["find", "q*z"],
    &["anagram", "listen"],
    &["anigram", "unscramble", "deir"],
    &["boxed", "solve", "riu", "pgh", "lcs", "yao"],
];

/// Writes `n` pseudo-words of 3 to 14 letters a-z, one a line, from a
/// fixed SplitMix64 sequence (the same file on every machine).
fn write_big_list(path: &Path, n: usize) {
    use std::io::Write;
    let mut state: u64 = 0x0005_eed0_fb16_1157;
    let mut next = || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create the big list"));
    let mut word = Vec::with_capacity(16);
    for _ in 0..n {
        let len = 3 + (next() % 12) as usize;
        word.clear();
        let mut bits = next();
        for i in 0..len {
            if i % 12 == 11 {
                bits = next();
            }
            word.push(b'a' + (bits % 26) as u8);
            bits /= 26;
        }
        out.write_all(&word).and_then(|()| out.write_all(b"\n")).expect("write the big list");
    }
    out.flush().expect("write the big list");
}

/// Drops a file's pages from the page cache (Linux, `posix_fadvise`), so
/// the next read comes from the disk; false where it cannot.
fn drop_pages(path: &Path) -> bool {
    #[cfg(target_os = "linux")]
    {
        use std::os::fd::AsRawFd;
        let Ok(file) = std::fs::File::open(path) else { return false };
        #[allow(unsafe_code)]
        // SAFETY: advice on an open file descriptor we own; no memory is passed.
        let done = unsafe { libc::posix_fadvise(file.as_raw_fd(), 0, 0, libc::POSIX_FADV_DONTNEED) };
        done == 0
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = path;
        false
    }
}

fn flag<'a>(args: &'a [String], name: &str) -> Option<&'a String> {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1))
}

/// Answers one baseline question as its own process (for whole-process
/// timing), printing a line so the work cannot be optimised away.
fn naive_answer(question: &str, list: &str) {
    let words = naive::load(list);
    let answer = match question {
        "load" => format!("{}", words.len()),
        "bee-solve" => format!("{:?}", naive::bee_solve(&words, "aeginrt", 'r')),
        "bee-best" => format!("{:?}", naive::bee_best(&words, "s")),
        "bee-best-s" => format!("{:?}", naive::bee_best(&words, "")),
        "bee-stats" => format!("{:?}", naive::bee_stats(&words, "s")),
        "bee-hints" => format!("{:?}", naive::bee_hints(&words, "aeginrt", 'r').len()),
        "boxed-2" => format!("{}", naive::boxed(&words, &["riu", "pgh", "lcs", "yao"], 2)),
        "boxed-3" => format!("{}", naive::boxed(&words, &["riu", "pgh", "lcs", "yao"], 3)),
        "unscramble" => format!("{:?}", naive::unscramble(&words, "deir")),
        "anigrams" => format!("{:?}", naive::anigrams(&words)),
        other => panic!("unknown question {other}"),
    };
    println!("{answer}");
}

/// Timings in milliseconds.
struct Stats {
    median: f64,
    min: f64,
    max: f64,
    rss_kb: u64,
}

impl Stats {
    fn of(mut ms: Vec<f64>, rss_kb: u64) -> Stats {
        ms.sort_by(f64::total_cmp);
        Stats { median: ms[ms.len() / 2], min: ms[0], max: ms[ms.len() - 1], rss_kb }
    }
}

struct Bench {
    runs: usize,
    wordhoard: PathBuf,
    me: PathBuf,
    enable1: String,
    popular: String,
    words_txt: Option<String>,
    scratch: PathBuf,
}

impl Bench {
    fn new(runs: usize) -> Bench {
        let me = std::env::current_exe().expect("own path");
        let built = me.with_file_name("wordhoard");
        assert!(built.exists(), "build the release binary first: cargo build --release");
        let find = |name: &str| -> Option<String> {
            let out = Command::new("scripts/wordlist.sh").arg(name).stderr(Stdio::inherit()).output().ok()?;
            out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
        };
        let scratch = std::env::temp_dir().join(format!("wordhoard-bench-{}", std::process::id()));
        std::fs::create_dir_all(&scratch).expect("scratch folder");
        // Every process is timed from a copy of the binary: as the linker
        // left it, the same binary started 7-24% slower than a copy of
        // itself (measured here, `--against` a copy), which tilted the
        // ratios to `grep` and to another build.
        let wordhoard = scratch.join("wordhoard");
        std::fs::copy(&built, &wordhoard).expect("copy wordhoard into the scratch folder");
        Bench {
            runs: runs.max(3),
            wordhoard,
            me,
            enable1: find("enable1.txt").expect("enable1.txt"),
            popular: find("popular.txt").unwrap_or_default(),
            words_txt: find("words.txt"),
            scratch,
        }
    }

    fn run(&self) -> String {
        let mut out = String::new();
        let index = self.scratch.join("enable1.hoard");
        out += &self.header();
        out += &self.builds(&index);
        out += &self.processes(&index);
        out += &self.phrase_anagrams(&index);
        out += &self.in_process(&index);
        out += &self.big();
        let _ = std::fs::remove_dir_all(&self.scratch);
        out
    }

    /// Issue 30's yardsticks on a list of [`BIG_WORDS`] words made by a
    /// fixed generator: builds against `LC_ALL=C sort -u` of the same list,
    /// and queries as ratios to `wordhoard --version` (the floor) in
    /// alternating runs, warm and with the index's pages dropped.
    /// `BENCH_BIG=0` leaves it out.
    fn big(&self) -> String {
        if std::env::var("BENCH_BIG").is_ok_and(|v| v == "0") {
            return "## 10 million words\n\nLeft out (BENCH_BIG=0).\n\n".into();
        }
        let list = self.scratch.join("big.txt");
        write_big_list(&list, BIG_WORDS);
        let index = self.scratch.join("big.hoard");
        let list_str = list.to_str().unwrap();
        let mut out = format!(
            "## {BIG_WORDS} generated words ({} bytes)\n\n\
             | step | median ms (min-max) | peak RSS | ratio |\n|---|---:|---:|---:|\n",
            file_len(list_str)
        );
        let sorted = self.scratch.join("big.sorted");
        let sort_script = format!("LC_ALL=C sort -u '{}' > '{}'", list_str, sorted.display());
        // Alternating, as the issue's ratios are: in one run the machine's
        // speed drifts, and three builds then three sorts drifted apart.
        let (build, sort) = self.paired_with(
            (&self.wordhoard, &["build", list_str, "-o", index.to_str().unwrap()]),
            (Path::new("/bin/sh"), &["-c", &sort_script]),
            3,
            run_synced,
        );
        out += &format!(
            "| LC_ALL=C sort -u | {:.0} ({:.0}-{:.0}) | {:.1} MB | 1 |\n",
            sort.median,
            sort.min,
            sort.max,
            sort.rss_kb as f64 / 1024.0
        );
        out += &format!(
            "| wordhoard build | {:.0} ({:.0}-{:.0}) | {:.1} MB | {:.2} x sort |\n\n",
            build.median,
            build.min,
            build.max,
            build.rss_kb as f64 / 1024.0,
            build.median / sort.median
        );
        let words = Index::open(&index).map_or(0, |i| i.word_count());
        out += &format!(
            "Index {} bytes, {words} distinct words. Queries, whole processes, each run beside \
             `wordhoard --version`; cold: the index's pages dropped first (Linux):\n\n\
             | command | ms (min-max) | peak RSS | / floor | cold ms |\n|---|---:|---:|---:|---:|\n",
            file_len(index.to_str().unwrap())
        );
        let index_arg = index.to_str().unwrap();
        for args in BIG_QUERIES {
            let mut all = vec!["--index", index_arg];
            all.extend_from_slice(args);
            let (mut ms, mut floor) = (Vec::new(), Vec::new());
            for i in 0..=self.runs {
                let t = run_once(&self.wordhoard, &all);
                let f = run_once(&self.wordhoard, &["--version"]);
                if i > 0 {
                    ms.push(t.as_secs_f64() * 1000.0);
                    floor.push(f.as_secs_f64() * 1000.0);
                }
            }
            let (q, f) = (Stats::of(ms, self.peak_rss(&self.wordhoard, &all)), Stats::of(floor, 0));
            let cold = drop_pages(&index).then(|| run_once(&self.wordhoard, &all).as_secs_f64() * 1000.0);
            out += &format!(
                "| {} | {:.2} ({:.2}-{:.2}) | {:.1} MB | {:.2}x | {} |\n",
                args.join(" "),
                q.median,
                q.min,
                q.max,
                q.rss_kb as f64 / 1024.0,
                q.median / f.median,
                cold.map_or("-".into(), |c| format!("{c:.0}"))
            );
        }
        // Over half a gigabyte: gone before anything else runs.
        for file in [&list, &sorted, &index] {
            let _ = std::fs::remove_file(file);
        }
        out + "\n"
    }

    /// `anagram --words` against Debian's `an` reading the same list, on
    /// phrases of 10 to 16 letters (at most 3 words of at least 3 letters).
    fn phrase_anagrams(&self, index: &Path) -> String {
        let an = ["/usr/games/an", "/usr/bin/an"].into_iter().map(PathBuf::from).find(|p| p.exists());
        let Some(an) = an else {
            return "## Multi-word anagrams\n\nDebian's `an` is not installed (scripts/deps.sh installs it): no comparison.\n\n".into();
        };
        let mut out = String::from(
            "## Multi-word anagrams against Debian's `an` (enable1, at most 3 words of 3+ letters, whole processes)\n\n\
             | phrase | letters | anagrams | wordhoard ms (50 listed) | wordhoard ms (all listed) | an ms (all) | an / wordhoard | an / wordhoard (all) |\n\
             |---|---:|---:|---:|---:|---:|---:|---:|\n",
        );
        let phrases = [
            "conversation",
            "the morse code",
            "determination",
            "eleven plus two",
            "dormitory rooms",
            "astronomer pluto",
            "software engineer",
        ];
        for phrase in phrases {
            let letters: String = phrase.chars().filter(char::is_ascii_alphabetic).collect();
            let base = ["--index", index.to_str().unwrap(), "anagram", "--words", phrase];
            let listed = self.time_process(&self.wordhoard, &base, self.runs);
            let all_args: Vec<&str> = base.iter().copied().chain(["--limit", "0"]).collect();
            let all = self.time_process(&self.wordhoard, &all_args, self.runs);
            let theirs =
                self.time_process(&an, &["-d", &self.enable1, "-l", "3", "-m", "3", &letters], self.runs.min(5));
            let json_args: Vec<&str> = base.iter().copied().chain(["--json", "--limit", "1"]).collect();
            let counted = Command::new(&self.wordhoard).args(&json_args).output().expect("wordhoard runs");
            let count =
                serde_json::from_slice::<serde_json::Value>(&counted.stdout).ok().and_then(|v| v["count"].as_u64());
            out += &format!(
                "| {phrase} | {} | {} | {:.1} | {:.1} | {:.1} | {:.0}x | {:.0}x |\n",
                letters.len(),
                count.map_or("?".into(), |c| c.to_string()),
                listed.median,
                all.median,
                theirs.median,
                theirs.median / listed.median,
                theirs.median / all.median,
            );
        }
        out + "\n"
    }

    fn header(&self) -> String {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|c| {
                c.lines()
                    .find(|l| l.starts_with("model name"))
                    .map(|l| l.split(':').nth(1).unwrap_or("").trim().to_string())
            })
            .unwrap_or_else(|| "unknown CPU".into());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        format!(
            "# wordhoard bench\n\n{cores} cores, {cpu}. Whole-process figures: median (min-max) of {} runs after a warm-up. \
             Baseline: a straightforward Rust implementation that reads the text list and scans it, as the seed write-ups do.\n\n",
            self.runs
        )
    }

    /// Times a command `runs` times after one warm-up; peak RSS over all runs.
    fn time_process(&self, program: &Path, args: &[&str], runs: usize) -> Stats {
        let mut ms = Vec::new();
        for i in 0..=runs {
            let elapsed = run_once(program, args);
            if i > 0 {
                ms.push(elapsed.as_secs_f64() * 1000.0);
            }
        }
        Stats::of(ms, self.peak_rss(program, args))
    }

    /// A command's peak RSS in KB, from one more run started by a fresh
    /// `wordhoard-bench peak-rss`: Linux counts in a child's peak the
    /// memory of the process that started it (the spawn shares its memory
    /// until the exec), so a child of this process, which holds enable1's
    /// words for the in-process table, read 69 MB for `find c?t` (8.5 MB
    /// under `/usr/bin/time`).
    fn peak_rss(&self, program: &Path, args: &[&str]) -> u64 {
        let out = Command::new(&self.me).arg("peak-rss").arg(program).args(args).output().expect("peak-rss runs");
        String::from_utf8_lossy(&out.stdout).trim().parse().expect("peak-rss prints a number")
    }

    fn builds(&self, index: &Path) -> String {
        let mut out = String::from("## Build\n\n| list | words file | median ms (min-max) | peak RSS | index bytes | index / list | baseline: read the list | budget |\n|---|---:|---:|---:|---:|---:|---:|---|\n");
        let mut lists = vec![("enable1.txt", self.enable1.clone(), BUILD_BUDGET_MS)];
        if let Some(w) = &self.words_txt {
            lists.push(("words.txt", w.clone(), BIG_BUILD_BUDGET_MS));
        }
        for (name, list, budget) in lists {
            let target = if name == "enable1.txt" { index.to_path_buf() } else { self.scratch.join("words.hoard") };
            let mut args = vec!["build", &list, "-o", target.to_str().unwrap()];
            if name == "enable1.txt" && !self.popular.is_empty() {
                args.extend(["--common", &self.popular]);
            }
            let build = self.time_process(&self.wordhoard, &args, 5);
            let baseline = self.time_process(&self.me, &["naive", "load", &list], 5);
            let (list_bytes, index_bytes) = (file_len(&list), file_len(target.to_str().unwrap()));
            out += &format!(
                "| {name} | {} | {:.1} ({:.1}-{:.1}) | {:.1} MB | {} | {:.2} | {:.1} | {} {budget:.0} ms |\n",
                list_bytes,
                build.median,
                build.min,
                build.max,
                build.rss_kb as f64 / 1024.0,
                index_bytes,
                index_bytes as f64 / list_bytes as f64,
                baseline.median,
                mark(build.median <= budget),
            );
        }
        out + "\n" + &self.builds_against_sort()
    }

    /// Each list's build (no common list) against `LC_ALL=C sort -u` of
    /// the same list, the two alternating (issue 30: at most 3x on
    /// enable1).
    fn builds_against_sort(&self) -> String {
        let mut out = String::from(
            "### Build against `LC_ALL=C sort -u` of the same list (alternating runs, each after a `sync`, no common list)\n\n\
             | list | build ms | sort -u ms | build / sort -u |\n|---|---:|---:|---:|\n",
        );
        let mut lists = vec![("enable1.txt", &self.enable1)];
        lists.extend(self.words_txt.iter().map(|w| ("words.txt", w)));
        let (target, sorted) = (self.scratch.join("against-sort.hoard"), self.scratch.join("against-sort.txt"));
        for (name, list) in lists {
            let sort_script = format!("LC_ALL=C sort -u '{list}' > '{}'", sorted.display());
            let (build, sort) = self.paired_with(
                (&self.wordhoard, &["build", list, "-o", target.to_str().unwrap()]),
                (Path::new("/bin/sh"), &["-c", &sort_script]),
                self.runs,
                run_synced,
            );
            out +=
                &format!("| {name} | {:.1} | {:.1} | {:.2} |\n", build.median, sort.median, build.median / sort.median);
        }
        out + "\n"
    }

    /// Each query of [`QUERIES`] on enable1 with this wordhoard and
    /// `other`, their runs alternating so that drift hits both alike.
    fn against(&self, other: &Path) -> String {
        assert!(other.exists(), "no wordhoard at {}", other.display());
        // Timed as a copy, as this build is (see `Bench::new`).
        let named = other.display().to_string();
        let other_copy = self.scratch.join("other-wordhoard");
        std::fs::copy(other, &other_copy).expect("copy the other wordhoard");
        let (this, other) = (self.wordhoard.as_path(), other_copy.as_path());
        let index = self.scratch.join("enable1.hoard");
        let mut build = vec!["build", &self.enable1, "-o", index.to_str().unwrap()];
        if !self.popular.is_empty() {
            build.extend(["--common", &self.popular]);
        }
        run_once(this, &build);
        // Each build queries an index it wrote: the two may read
        // different format versions.
        let other_index = self.scratch.join("enable1-other.hoard");
        build[3] = other_index.to_str().unwrap();
        run_once(other, &build);
        let mut out = self.header();
        out += &format!(
            "## This build against {} (enable1, whole processes, alternating runs)\n\n\
             | command | this ms (min-max) | other ms (min-max) | this / other |\n|---|---:|---:|---:|\n",
            named
        );
        for q in QUERIES {
            let mut args = vec!["--index", index.to_str().unwrap()];
            args.extend_from_slice(q.args);
            let mut other_args = args.clone();
            other_args[1] = other_index.to_str().unwrap();
            let runs = Command::new(other).args(&other_args).stdout(Stdio::null()).stderr(Stdio::null()).status();
            if !runs.is_ok_and(|s| s.success()) {
                out += &format!("| {} | - | (not in the other build) | - |\n", q.name);
                continue;
            }
            let (mine, that) = self.paired((this, &args), (other, &other_args));
            out += &format!(
                "| {} | {:.2} ({:.2}-{:.2}) | {:.2} ({:.2}-{:.2}) | {:.2} |\n",
                q.name,
                mine.median,
                mine.min,
                mine.max,
                that.median,
                that.min,
                that.max,
                mine.median / that.median
            );
        }
        let _ = std::fs::remove_dir_all(&self.scratch);
        out + "\n"
    }

    /// Each query of [`QUERIES`], its runs alternating with `wordhoard
    /// --version` (the floor: a process that starts and exits), then
    /// issue 30's comparisons with `grep` and the floor.
    fn processes(&self, index: &Path) -> String {
        let mut out = String::from("## Queries as whole processes (enable1)\n\n| command | wordhoard ms (min-max) | peak RSS | / floor | baseline ms | baseline / wordhoard | budget (and 10 MB) |\n|---|---:|---:|---:|---:|---:|---|\n");
        let floor_args: &[&str] = &["--version"];
        let mut floors = Vec::new();
        for q in QUERIES {
            let mut args = vec!["--index", index.to_str().unwrap()];
            args.extend_from_slice(q.args);
            let (fast, floor) = self.paired((&self.wordhoard, &args), (&self.wordhoard, floor_args));
            floors.push(floor.median);
            let slow = q.naive.map(|n| self.time_process(&self.me, &["naive", n, &self.enable1], self.runs.min(5)));
            let within = |ms: f64| fast.median <= ms && fast.rss_kb <= RSS_BUDGET_KB;
            out += &format!(
                "| {} | {:.2} ({:.2}-{:.2}) | {:.1} MB | {:.2}x | {} | {} | {} |\n",
                q.name,
                fast.median,
                fast.min,
                fast.max,
                fast.rss_kb as f64 / 1024.0,
                fast.median / floor.median,
                slow.as_ref().map_or("-".into(), |s| format!("{:.1}", s.median)),
                slow.as_ref().map_or("-".into(), |s| format!("{:.0}x", s.median / fast.median)),
                q.budget.map_or("(no budget)".into(), |ms| format!("{} {ms} ms", mark(within(ms)))),
            );
        }
        floors.sort_by(f64::total_cmp);
        out += &format!(
            "\nThe floor (`wordhoard --version`, run after each query run): median {:.2} ms.\n\n",
            floors[floors.len() / 2]
        );
        out + &self.against_grep(index)
    }

    /// `find` with a leading `*` against `grep -E` over the list, the two
    /// alternating (issue 30: no slower than grep).
    fn against_grep(&self, index: &Path) -> String {
        let mut out = String::from(
            "### `find` with a leading `*` against `grep -E` over enable1.txt (alternating runs, each writing its matches to a file)\n\n\
             | pattern | wordhoard ms | grep ms | wordhoard / grep |\n|---|---:|---:|---:|\n",
        );
        let grep = Path::new("/usr/bin/grep");
        if !grep.exists() {
            return out + "\n/usr/bin/grep is not installed: no comparison.\n\n";
        }
        for (pattern, regex) in [("*[^aeiou]ly", "[^aeiou]ly$"), ("*ing", "ing$"), ("*q?", "q.$")] {
            let find = ["--index", index.to_str().unwrap(), "find", pattern, "--limit", "0"];
            let (ours, theirs) = self.paired_writing((&self.wordhoard, &find), (grep, &["-E", regex, &self.enable1]));
            out += &format!(
                "| {pattern} | {:.2} | {:.2} | {:.2} |\n",
                ours.median,
                theirs.median,
                ours.median / theirs.median
            );
        }
        out + "\n"
    }

    /// Runs `a` and `b` alternately, [`Bench::runs`] times each after a
    /// warm-up, so that the machine's drift hits both alike.
    fn paired(&self, a: (&Path, &[&str]), b: (&Path, &[&str])) -> (Stats, Stats) {
        self.paired_with(a, b, self.runs, run_once)
    }

    /// [`Bench::paired`] with each run's output written to a file (made
    /// empty before the clock starts): GNU grep stops at its first match
    /// when its output is `/dev/null`, so a search that is to print every
    /// match must have somewhere to print it.
    fn paired_writing(&self, a: (&Path, &[&str]), b: (&Path, &[&str])) -> (Stats, Stats) {
        let out = self.scratch.join("paired-output");
        self.paired_with(a, b, self.runs, |program, args| {
            let file = std::fs::File::create(&out).expect("the output file opens");
            run_writing(program, args, file.into()).0
        })
    }

    /// `runs` alternating pairs of `a` then `b`, after one pair as a warm-up.
    fn paired_with(
        &self,
        (a, a_args): (&Path, &[&str]),
        (b, b_args): (&Path, &[&str]),
        runs: usize,
        run: impl Fn(&Path, &[&str]) -> Duration,
    ) -> (Stats, Stats) {
        let (mut first, mut second) = (Vec::new(), Vec::new());
        for i in 0..=runs {
            let ta = run(a, a_args);
            let tb = run(b, b_args);
            if i > 0 {
                first.push(ta.as_secs_f64() * 1000.0);
                second.push(tb.as_secs_f64() * 1000.0);
            }
        }
        (Stats::of(first, self.peak_rss(a, a_args)), Stats::of(second, self.peak_rss(b, b_args)))
    }

    /// Builds enable1's index, then [`Bench::in_process`].
    fn in_process_only(&self) -> String {
        let index = self.scratch.join("enable1.hoard");
        let mut build = vec!["build", &self.enable1, "-o", index.to_str().unwrap()];
        if !self.popular.is_empty() {
            build.extend(["--common", &self.popular]);
        }
        run_once(&self.wordhoard, &build);
        let out = self.in_process(&index);
        let _ = std::fs::remove_dir_all(&self.scratch);
        out
    }

    fn in_process(&self, path: &Path) -> String {
        let index = Index::open(path).expect("bench index opens");
        let words = naive::load(&self.enable1);
        let a = index.alphabet().clone();
        let puzzle = bee::Puzzle::parse(&a, "aeginrt", Some("r")).unwrap();
        let no_s = a.parse_distinct("s", "exclude").unwrap();
        let letter_box = boxed::LetterBox::parse(&a, &["riu", "pgh", "lcs", "yao"]).unwrap();
        let an = Anigrams::open(&index).unwrap();
        let bee_args = serde_json::json!({"letters": "aeginrt", "center": "r"});
        let load = median_us(|| naive::load(&self.enable1).len());
        type Case<'c> = (&'static str, Box<dyn Fn() -> usize + 'c>, Option<Box<dyn Fn() -> usize + 'c>>);
        let cases: Vec<Case> = vec![
            (
                "bee solve",
                Box::new(|| bee::solve(&index, puzzle, &bee::SolveOptions::default()).unwrap().words.len()),
                Some(Box::new(|| naive::bee_solve(&words, "aeginrt", 'r').0)),
            ),
            (
                "bee solve through the request layer, as JSON text (what --json and JavaScript get)",
                Box::new(|| {
                    let r = wordhoard_query::request::Request::parse("bee solve", &bee_args).unwrap();
                    r.answer_text(&index, None).unwrap().len()
                }),
                None,
            ),
            (
                "bee solve through the request layer, as a serde_json Value",
                Box::new(|| {
                    let r = wordhoard_query::request::Request::parse("bee solve", &bee_args).unwrap();
                    r.answer(&index, None).unwrap()["count"].as_u64().unwrap_or(0) as usize
                }),
                None,
            ),
            (
                "bee solve_each (words borrowed, not kept)",
                Box::new(|| {
                    let mut letters = 0;
                    let totals = bee::solve_each(&index, puzzle, &bee::SolveOptions::default(), |w| {
                        letters += w.word.len();
                    });
                    totals.unwrap().words as usize + letters
                }),
                None,
            ),
            (
                "bee best",
                Box::new(|| bee::best(&index, 10, no_s, &Default::default()).unwrap().len()),
                Some(Box::new(|| naive::bee_best(&words, "s").2 as usize)),
            ),
            (
                "bee stats",
                Box::new(|| bee::stats(&index, no_s).unwrap().valid as usize),
                Some(Box::new(|| naive::bee_stats(&words, "s").0)),
            ),
            (
                "bee hints",
                Box::new(|| bee::hints(&index, puzzle, &Default::default()).unwrap().grid.len()),
                Some(Box::new(|| naive::bee_hints(&words, "aeginrt", 'r').len())),
            ),
            (
                "boxed solve",
                Box::new(|| boxed::solve(&index, &letter_box, &boxed::SolveOptions::default()).unwrap().count as usize),
                Some(Box::new(|| naive::boxed(&words, &["riu", "pgh", "lcs", "yao"], 2))),
            ),
            (
                "anigram unscramble",
                Box::new(|| an.unscramble("deir").unwrap().words.len()),
                Some(Box::new(|| naive::unscramble(&words, "deir").len())),
            ),
            (
                "anigram count",
                Box::new(|| an.count(anigram::Start::Len(4), 9).unwrap() as usize),
                Some(Box::new(|| naive::anigrams(&words).0 as usize)),
            ),
            ("anigram top", Box::new(|| an.top(10, anigram::Game { start_len: 4, goal_len: 9 }).unwrap().len()), None),
            ("anigram longest", Box::new(|| an.longest(anigram::Start::Len(4)).unwrap().len()), None),
            ("verify (all checksums)", Box::new(|| index.verify().len()), None),
            (
                "bee stats, no S? full set",
                Box::new(|| bee::stats(&index, LetterSet::EMPTY).unwrap().valid as usize),
                None,
            ),
        ];
        let mut out = format!(
            "## Queries through the library (in-process, index already open)\n\nBaseline in-process: the list already in memory \
             (loading it costs a further {:.0} us each time).\n\n| question | wordhoard us | baseline us | baseline / wordhoard |\n|---|---:|---:|---:|\n",
            load
        );
        for (name, fast, slow) in &cases {
            let f = median_us(fast);
            let s = slow.as_ref().map(median_us);
            out += &format!(
                "| {name} | {f:.1} | {} | {} |\n",
                s.map_or("-".into(), |s| format!("{s:.0}")),
                s.map_or("-".into(), |s| format!("{:.0}x", s / f))
            );
        }
        out += "\nFirst use of a section: a fresh map, then its checksum (one prefault call and a CRC-32 pass). \
                This is what a query pays once per section it reads.\n\n| section | bytes | first use us |\n|---|---:|---:|\n";
        for id in wordhoard_query::format::SectionId::ALL {
            let Some(entry) = index.header().entry(id).copied() else { continue };
            let mut samples: Vec<f64> = (0..31)
                .map(|_| {
                    let fresh = Index::open(path).expect("index opens");
                    let started = Instant::now();
                    std::hint::black_box(fresh.section(id).expect("section checks").len());
                    started.elapsed().as_secs_f64() * 1e6
                })
                .collect();
            samples.sort_by(f64::total_cmp);
            out += &format!("| {} | {} | {:.0} |\n", id.name(), entry.len, samples[samples.len() / 2]);
        }
        out + "\n"
    }
}

/// Median wall time of a call, in microseconds, over up to 201 calls or
/// about a second.
fn median_us(f: impl Fn() -> usize) -> f64 {
    let mut samples = Vec::new();
    let started = Instant::now();
    let mut sink = 0;
    while samples.len() < 201 && (samples.len() < 3 || started.elapsed() < Duration::from_secs(1)) {
        let t = Instant::now();
        sink ^= std::hint::black_box(f());
        samples.push(t.elapsed().as_secs_f64() * 1e6);
    }
    std::hint::black_box(sink);
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn mark(ok: bool) -> &'static str {
    if ok {
        "within"
    } else {
        "OVER"
    }
}

fn file_len(path: &str) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Runs a program once; its wall time and peak RSS (KB; 0 where the
/// platform does not say).
#[allow(clippy::zombie_processes)] // reaped by wait4 in wait_with_rusage
fn run_once(program: &Path, args: &[&str]) -> Duration {
    run_with_rusage(program, args).0
}

/// [`run_once`] after a `sync` (not timed), for commands that write
/// files: each starts with nothing of the other's left to write back.
/// A build syncs its index, and on ext4 that commit also writes out the
/// data other files left dirty: after `sort -u` wrote the 10M list's 85
/// MB, the build's publish took 1.11-1.18 s, after a `sync` 0.57-0.70 s.
/// `sort -u` syncs nothing, so the `sync` before it costs it nothing.
fn run_synced(program: &Path, args: &[&str]) -> Duration {
    let _ = Command::new("sync").status();
    run_once(program, args)
}

/// Runs a command once (no input or output): its wall time and peak RSS
/// in KB (the RSS as `wait4` reports it; see [`Bench::peak_rss`]).
fn run_with_rusage(program: &Path, args: &[&str]) -> (Duration, u64) {
    run_writing(program, args, Stdio::null())
}

/// [`run_with_rusage`] with the command's output sent to `stdout`.
fn run_writing(program: &Path, args: &[&str], stdout: Stdio) -> (Duration, u64) {
    let started = Instant::now();
    let child = Command::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}", program.display()));
    let (ok, rss) = wait_with_rusage(child);
    let elapsed = started.elapsed();
    assert!(ok, "{} {args:?} failed", program.display());
    (elapsed, rss)
}

/// Waits for a child and reads its peak RSS from `wait4`, which std does
/// not expose.
#[cfg(unix)]
fn wait_with_rusage(child: std::process::Child) -> (bool, u64) {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in; the pid is our own
    // unwaited child, so std never waits for it a second time.
    #[allow(unsafe_code)]
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::wait4(child.id() as i32, &mut status, 0, &mut usage);
        usage
    };
    (status == 0, usage.ru_maxrss as u64)
}

/// Elsewhere: the exit status only.
#[cfg(not(unix))]
fn wait_with_rusage(mut child: std::process::Child) -> (bool, u64) {
    (child.wait().is_ok_and(|s| s.success()), 0)
}
