//! Finding indexes from any folder: `--index PATH|NAME`,
//! `$WORDHOARD_INDEX`, the index folder (`$WORDHOARD_HOME`, else the data
//! folder), `build` without `-o`, `wordhoard list`, and an installed binary.

mod common;

use std::path::Path;
use std::process::Output;

use common::{bin, repo, stderr, Scratch};
use serde_json::Value;

/// The binary run from `cwd` with `home` as `$WORDHOARD_HOME`.
fn at_home(home: &Path, cwd: &Path, args: &[&str]) -> Output {
    bin().env("WORDHOARD_HOME", home).current_dir(cwd).args(args).output().unwrap()
}

fn json_of(out: &Output) -> Value {
    assert!(out.status.success(), "{}", stderr(out));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn golden_list() -> String {
    repo().join("tests/data/golden-words.txt").to_str().unwrap().to_string()
}

#[test]
fn build_without_output_writes_name_hoard_into_the_index_folder() {
    let s = Scratch::new();
    let home = s.path("home/indexes"); // made by the build
    let elsewhere = s.path("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let report = json_of(&at_home(&home, &elsewhere, &["build", &golden_list(), "--json"]));
    let written = home.join("golden-words.hoard");
    assert_eq!(report["output"], written.to_str().unwrap());
    assert!(written.is_file());
    json_of(&at_home(&home, &elsewhere, &["build", &golden_list(), "--name", "golden", "--json"]));
    assert!(home.join("golden.hoard").is_file());
    // Named, from any folder; the default name is enable1.
    let info = json_of(&at_home(&home, &elsewhere, &["--index", "golden", "info", "--json"]));
    assert_eq!(info["name"], "golden");
    assert_eq!(info["path"], home.join("golden.hoard").to_str().unwrap());
    json_of(&at_home(&home, &elsewhere, &["build", &golden_list(), "--name", "enable1", "--json"]));
    let default = json_of(&at_home(&home, &elsewhere, &["bee", "stats", "--json"]));
    assert_eq!(default["words"], 65, "the list's `I` is a proper noun");
}

#[test]
fn a_name_with_a_slash_is_refused_for_the_folder() {
    let s = Scratch::new();
    let out = at_home(&s.path("home"), s.dir.path(), &["build", &golden_list(), "--name", "a/b"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("error: --name \"a/b\" cannot name an index file"), "{}", stderr(&out));
}

#[test]
fn index_env_takes_a_name_or_a_path_and_the_flag_wins() {
    let s = Scratch::new();
    let home = s.path("home");
    json_of(&at_home(&home, s.dir.path(), &["build", &golden_list(), "--name", "golden", "--json"]));
    let by_name =
        bin().env("WORDHOARD_HOME", &home).env("WORDHOARD_INDEX", "golden").args(["info", "--json"]).output().unwrap();
    assert_eq!(json_of(&by_name)["name"], "golden");
    let path = home.join("golden.hoard");
    let by_path = bin().env("WORDHOARD_INDEX", &path).args(["info", "--json"]).output().unwrap();
    assert_eq!(json_of(&by_path)["path"], path.to_str().unwrap());
    let flag_wins = bin()
        .env("WORDHOARD_HOME", &home)
        .env("WORDHOARD_INDEX", "golden")
        .args(["--index", "nothing-here", "info"])
        .output()
        .unwrap();
    assert_eq!(flag_wins.status.code(), Some(1));
    assert!(stderr(&flag_wins).contains("no index nothing-here"), "{}", stderr(&flag_wins));
}

#[test]
fn a_missing_index_names_where_it_looked_and_the_build_command() {
    let s = Scratch::new();
    let home = s.path("home");
    let out = at_home(&home, s.dir.path(), &["bee", "stats"]);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let expected = home.join("enable1.hoard");
    for part in [
        "error: no index enable1",
        expected.to_str().unwrap(),
        "$WORDHOARD_INDEX not set",
        "$WORDHOARD_HOME",
        "wordhoard build WORDLIST --name enable1",
    ] {
        assert!(err.contains(part), "{part:?} in {err}");
    }
    // A path names itself and the -o that would build it.
    let path = s.path("x.hoard");
    let out = at_home(&home, s.dir.path(), &["--index", path.to_str().unwrap(), "info"]);
    let err = stderr(&out);
    assert!(err.contains(&format!("-o {}", path.display())) && err.contains("--index"), "{err}");
    // What the folder holds is listed.
    json_of(&at_home(&home, s.dir.path(), &["build", &golden_list(), "--name", "golden", "--json"]));
    let out = at_home(&home, s.dir.path(), &["--index", "other", "info"]);
    assert!(stderr(&out).contains("it holds golden"), "{}", stderr(&out));
}

#[cfg(target_os = "linux")]
#[test]
fn without_wordhoard_home_the_data_folder_holds_the_indexes() {
    let s = Scratch::new();
    let xdg = s.path("xdg");
    let built = bin()
        .env_remove("WORDHOARD_HOME")
        .env("XDG_DATA_HOME", &xdg)
        .args(["build", &golden_list(), "--name", "enable1", "--json"])
        .output()
        .unwrap();
    assert_eq!(json_of(&built)["output"], xdg.join("wordhoard/enable1.hoard").to_str().unwrap());
    let stats = bin().env_remove("WORDHOARD_HOME").env("XDG_DATA_HOME", &xdg).args(["bee", "stats", "--json"]).output();
    assert_eq!(json_of(&stats.unwrap())["words"], 65, "the list's `I` is a proper noun");
    // No XDG_DATA_HOME: ~/.local/share/wordhoard.
    let home = s.path("user");
    let listed = bin().env_remove("WORDHOARD_HOME").env("HOME", &home).args(["list", "--json"]).output().unwrap();
    assert_eq!(json_of(&listed)["folder"], home.join(".local/share/wordhoard").to_str().unwrap());
}

#[test]
fn list_shows_name_words_size_and_build_time() {
    let s = Scratch::new();
    let home = s.path("home");
    let empty = at_home(&home, s.dir.path(), &["list"]);
    assert!(empty.status.success());
    assert!(
        String::from_utf8_lossy(&empty.stdout).starts_with("No indexes in "),
        "{}",
        String::from_utf8_lossy(&empty.stdout)
    );
    for name in ["zeta", "alpha"] {
        json_of(&at_home(&home, s.dir.path(), &["build", &golden_list(), "--name", name, "--json"]));
    }
    std::fs::write(home.join("broken.hoard"), b"not an index").unwrap();
    std::fs::write(home.join("notes.txt"), b"not listed").unwrap();
    std::fs::create_dir(home.join("folder.hoard")).unwrap();
    #[cfg(unix)]
    {
        // A FIFO would block `list` on open: it is not an index file.
        let made = std::process::Command::new("mkfifo").arg(home.join("pipe.hoard")).status().unwrap();
        assert!(made.success());
    }
    let listed = json_of(&at_home(&home, s.dir.path(), &["list", "--json"]));
    assert_eq!(listed["folder"], home.to_str().unwrap());
    let rows = listed["indexes"].as_array().unwrap();
    let names: Vec<&str> = rows.iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["alpha", "broken", "zeta"]);
    assert_eq!(rows[0]["words"], 65, "the list's `I` is a proper noun");
    assert_eq!(rows[0]["bytes"], std::fs::metadata(home.join("alpha.hoard")).unwrap().len());
    // ISO 8601 UTC, the same instant as the unix seconds.
    let built = rows[0]["built_at"].as_str().unwrap();
    assert!(built.len() == 20 && built.as_bytes()[10] == b'T' && built.ends_with('Z'), "{built}");
    let secs = rows[0]["built_at_unix"].as_u64().unwrap();
    assert_eq!(&built[11..19], format!("{:02}:{:02}:{:02}", secs % 86_400 / 3600, secs % 3600 / 60, secs % 60));
    assert!(rows[0]["error"].is_null());
    assert!(rows[1]["words"].is_null() && rows[1]["error"].as_str().unwrap().contains("not a wordhoard index"));
    let text = at_home(&home, s.dir.path(), &["list"]);
    let text = String::from_utf8(text.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("Indexes in ") && lines[1].contains("words") && lines[1].contains("built"), "{text}");
    assert!(lines[2].starts_with("  alpha") && lines[2].contains(" 65 ") && lines[2].ends_with('Z'), "{text}");
    assert!(lines[3].contains("does not open"), "{text}");
}

#[cfg(unix)]
#[test]
fn make_install_puts_a_binary_that_works_from_any_folder() {
    let s = Scratch::new();
    let prefix = s.path("prefix");
    use std::process::Command;
    let installed = Command::new(repo().join("scripts/install.sh"))
        .arg(&prefix)
        .env("WORDHOARD_BIN", env!("CARGO_BIN_EXE_wordhoard"))
        .output()
        .unwrap();
    assert!(installed.status.success(), "{}", stderr(&installed));
    let wordhoard = prefix.join("bin/wordhoard");
    assert!(wordhoard.is_file());
    // The man pages and the completions where the platform looks.
    for file in [
        "share/man/man1/wordhoard.1",
        "share/man/man1/wordhoard-bee-solve.1",
        "share/bash-completion/completions/wordhoard",
        "share/zsh/site-functions/_wordhoard",
        "share/fish/vendor_completions.d/wordhoard.fish",
    ] {
        let path = prefix.join(file);
        assert!(std::fs::metadata(&path).is_ok_and(|m| m.len() > 100), "{file} installed");
    }
    let man =
        Command::new("man").arg("-w").arg("wordhoard-bee-solve").env("MANPATH", prefix.join("share/man")).output();
    if let Ok(man) = man {
        assert!(String::from_utf8_lossy(&man.stdout).contains("wordhoard-bee-solve.1"), "man finds the installed page");
    }
    let leftovers = std::fs::read_dir(prefix.join("share/man/man1"))
        .unwrap()
        .filter(|e| e.as_ref().unwrap().file_name().to_string_lossy().starts_with('.'));
    assert_eq!(leftovers.count(), 0, "no temporary files");
    let home = s.path("home");
    let elsewhere = s.path("elsewhere");
    std::fs::create_dir(&elsewhere).unwrap();
    let run = |args: &[&str]| {
        Command::new(&wordhoard)
            .env_remove("WORDHOARD_INDEX")
            .env("WORDHOARD_HOME", &home)
            .current_dir(&elsewhere)
            .args(args)
            .output()
            .unwrap()
    };
    json_of(&run(&["build", &golden_list(), "--name", "enable1", "--json"]));
    let solved = json_of(&run(&["bee", "solve", "aeginrt", "--center", "r", "--json"]));
    assert!(solved["count"].as_u64().unwrap() > 0);
    assert!(String::from_utf8(run(&["list"]).stdout).unwrap().contains("enable1"));
}
