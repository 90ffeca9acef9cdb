// `sqlx::migrate!` embeds the migrations at compile time; a new or changed one must rebuild.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
