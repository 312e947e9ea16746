// Placeholder so the target builds before its first file lands.
