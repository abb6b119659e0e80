//! Letter Boxed (placeholder while the module is written).
