//! The HTTP side of the API (Go's `endpoints`): what a request asks for, in which
//! format, and the handlers answering it.

pub mod deprecation;
pub mod fieldmanager;
pub mod go_type_errors;
pub mod handlers;
pub mod negotiation;
pub mod request_info;
pub mod responsewriters;
pub mod transform;
pub mod warning;
