//! `colors.theme = "light:NAME,dark:NAME"` follows the desktop's colour scheme, read from the
//! settings portal: a fake portal on the test's own session bus says "light", and the window
//! is drawn on the light theme's background; it then says "dark", and the running window
//! changes to the dark one.

use std::time::Duration;

use zbus::object_server::SignalEmitter;
use zbus::zvariant::{OwnedValue, Value};

mod x11;
use x11::{SessionBus, Sluice, wait_until};

/// The portal's settings interface, with one setting.
struct Settings {
    scheme: u32,
}

#[zbus::interface(name = "org.freedesktop.portal.Settings")]
impl Settings {
    fn read_one(&self, namespace: &str, key: &str) -> zbus::fdo::Result<OwnedValue> {
        if (namespace, key) == ("org.freedesktop.appearance", "color-scheme") {
            Ok(OwnedValue::from(self.scheme))
        } else {
            Err(zbus::fdo::Error::Failed("no such setting".into()))
        }
    }

    #[zbus(signal)]
    async fn setting_changed(
        emitter: &SignalEmitter<'_>,
        namespace: &str,
        key: &str,
        value: Value<'_>,
    ) -> zbus::Result<()>;
}

const PATH: &str = "/org/freedesktop/portal/desktop";

#[test]
fn a_light_and_dark_theme_follows_the_desktop() {
    let bus = SessionBus::start();
    let portal = zbus::blocking::connection::Builder::address(bus.address.as_str())
        .unwrap()
        .name("org.freedesktop.portal.Desktop")
        .unwrap()
        .serve_at(PATH, Settings { scheme: 2 })
        .unwrap()
        .build()
        .expect("the fake portal is on the bus");
    let s = Sluice::launch_with(
        "appearance",
        &["--size", "20x4", "-e", "sh", "-c", "sleep 30"],
        "[colors]\ntheme = \"light:tomorrow,dark:tomorrow-night\"\n",
        &[("DBUS_SESSION_BUS_ADDRESS", &bus.address)],
    );
    // The background of the window's middle, as drawn now.
    let background = |name: &str| {
        let (w, h, rgba) = x11::screenshot(&s.x.display, &s.window, &s.dir.join(name));
        let i = (((h / 2) * w + w / 2) * 4) as usize;
        [rgba[i], rgba[i + 1], rgba[i + 2]]
    };
    let mut seen = [0; 3];
    let light = wait_until(Duration::from_secs(10), || {
        seen = background("light.png");
        seen == [0xff, 0xff, 0xff]
    });
    assert!(
        light.is_ok(),
        "tomorrow's white, got {seen:02x?}\n{}",
        s.log()
    );

    // The desktop turns dark.
    let iface = portal
        .object_server()
        .interface::<_, Settings>(PATH)
        .unwrap();
    zbus::block_on(Settings::setting_changed(
        iface.signal_emitter(),
        "org.freedesktop.appearance",
        "color-scheme",
        Value::from(1u32),
    ))
    .unwrap();
    let dark = wait_until(Duration::from_secs(10), || {
        seen = background("dark.png");
        seen == [0x1d, 0x1f, 0x21]
    });
    assert!(
        dark.is_ok(),
        "tomorrow-night's, got {seen:02x?}\n{}",
        s.log()
    );
}
