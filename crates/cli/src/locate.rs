//! Where indexes live: the library's rule (`wordhoard_query::folder`),
//! which the Python package follows too.

pub use wordhoard_query::folder::{choose, How, IndexChoice, IndexFolder, DEFAULT_NAME};
