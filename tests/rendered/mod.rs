//! The rendered public charts of testdata/rendered (`*.yaml.gz`), each as
//! its text, in file-name order: the corpus of the head-read and fuzz tests.

use std::io::Read;

pub fn charts() -> Vec<String> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/testdata/rendered");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "gz"))
        .collect();
    paths.sort();
    paths
        .iter()
        .map(|path| {
            let mut text = String::new();
            flate2::read::GzDecoder::new(std::fs::File::open(path).unwrap()).read_to_string(&mut text).unwrap();
            text
        })
        .collect()
}
