//! Games' ids and invite tokens: random letters and digits that cannot be confused.

/// A random token of `len` letters and digits that cannot be confused (no 0/O, 1/l/I).
pub fn random_token(len: usize) -> String {
    use rand::Rng;
    const ALPHABET: &[u8] = b"abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..len)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}
