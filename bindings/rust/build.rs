//! Finds libsddmm for linking: `SDDMM_LIB_DIR` when set (an explicit choice beats a search, so a
//! build tree is never shadowed by an installed copy), otherwise `pkg-config --libs sddmm`.
//! Linking is dynamic; at run time the loader must find libsddmm.so.0 (LD_LIBRARY_PATH, rpath or
//! a system directory).

use std::env;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=SDDMM_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");

    if let Some(dir) = env::var_os("SDDMM_LIB_DIR") {
        println!("cargo:rustc-link-search=native={}", dir.to_string_lossy());
        println!("cargo:rustc-link-lib=dylib=sddmm");
        return;
    }
    match pkg_config_libs() {
        Ok(flags) => emit(&flags),
        Err(why) => panic!(
            "libsddmm not found: {why}. Set PKG_CONFIG_PATH to the folder holding sddmm.pc \
             (<prefix>/lib/pkgconfig), or SDDMM_LIB_DIR to the folder holding libsddmm.so."
        ),
    }
}

fn pkg_config_libs() -> Result<String, String> {
    let libs = pkg_config(&["--libs", "sddmm"])?;
    // The .pc file is an input too: reinstalling the library elsewhere must relink.
    let pc_dir = pkg_config(&["--variable=pcfiledir", "sddmm"])?;
    println!("cargo:rerun-if-changed={}/sddmm.pc", pc_dir.trim());
    Ok(libs)
}

fn pkg_config(args: &[&str]) -> Result<String, String> {
    let program = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let command = format!("{program} {}", args.join(" "));
    let output = Command::new(&program).args(args).output().map_err(|e| format!("could not run `{command}`: {e}"))?;
    if !output.status.success() {
        return Err(format!("`{command}` failed: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    String::from_utf8(output.stdout).map_err(|e| format!("`{command}` printed non-UTF-8: {e}"))
}

fn emit(flags: &str) {
    for flag in flags.split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib={lib}");
        } else {
            println!("cargo:warning=ignoring pkg-config flag `{flag}`");
        }
    }
}
