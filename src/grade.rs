//! Grading
