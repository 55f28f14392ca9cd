/// The layer tree (CALayer semantics) arrives with the fold.
