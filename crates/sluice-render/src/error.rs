/// What can go wrong setting up or using the renderer.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(
        "no GPU adapter available (install Mesa's lavapipe, `mesa-vulkan-drivers`, on machines without a GPU): {0}"
    )]
    NoAdapter(String),
    #[error("cannot open the GPU device: {0}")]
    Device(String),
    #[error("font: {0}")]
    Font(String),
    #[error("cannot create the window surface: {0}")]
    Surface(String),
    #[error("reading the frame back failed: {0}")]
    Readback(String),
    #[error("writing the image failed: {0}")]
    Image(String),
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
