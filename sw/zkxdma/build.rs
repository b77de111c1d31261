//! Links libzkxdma.a, built by sw/Makefile (make -C sw) from the C sources of sw/lib.
use std::path::PathBuf;
use std::process::Command;

fn main() {
    let sw = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("..");
    for f in ["lib/zkxdma.c", "lib/zkxdma_xfer.c", "lib/zkxdma_pair.c", "lib/zkxdma_cards.c", "lib/zkxdma_spread.c", "lib/zkfmt.c", "lib/zkxdma.h",
              "lib/zkxdma_job.h", "Makefile"] {
        println!("cargo:rerun-if-changed={}", sw.join(f).display());
    }
    let st = Command::new("make").arg("-s").arg("-C").arg(&sw).arg("build/libzkxdma.a").status()
        .expect("make (needed to build sw/build/libzkxdma.a)");
    assert!(st.success(), "make -C sw build/libzkxdma.a failed");
    println!("cargo:rustc-link-search=native={}", sw.join("build").display());
    println!("cargo:rustc-link-lib=static=zkxdma");
    println!("cargo:rustc-link-lib=pthread");
}
