//! The desktop's light or dark preference, for `colors.theme = "light:NAME,dark:NAME"`.
//!
//! winit reports no theme on X11 (and only the compositor's decorations' on Wayland), so
//! Sluice asks where GNOME, KDE and the other desktops publish it: the settings portal
//! (`org.freedesktop.portal.Settings`, key `org.freedesktop.appearance color-scheme`: 1 dark,
//! 2 light, 0 no preference), on the session bus. A thread reads it once and then follows its
//! `SettingChanged` signal, telling the UI thread each change. Without a session bus or a
//! portal nothing is reported and the dark side is used, as the default theme is dark.

use winit::event_loop::EventLoopProxy;
use zbus::blocking::{Connection, Proxy};
use zbus::zvariant::OwnedValue;

use crate::events::UserEvent;

const PORTAL: &str = "org.freedesktop.portal.Desktop";
const PATH: &str = "/org/freedesktop/portal/desktop";
const SETTINGS: &str = "org.freedesktop.portal.Settings";
const NAMESPACE: &str = "org.freedesktop.appearance";
const KEY: &str = "color-scheme";

/// Starts following the preference; each change arrives as [`UserEvent::PrefersLight`].
pub fn watch(proxy: EventLoopProxy<UserEvent>) {
    let spawned = std::thread::Builder::new()
        .name("appearance".into())
        .spawn(move || {
            if let Err(err) = follow(&proxy) {
                tracing::debug!(%err, "no colour scheme from the desktop (settings portal)");
            }
        });
    if let Err(err) = spawned {
        tracing::warn!(%err, "cannot start the appearance thread");
    }
}

fn follow(proxy: &EventLoopProxy<UserEvent>) -> zbus::Result<()> {
    let connection = Connection::session()?;
    let settings = Proxy::new(&connection, PORTAL, PATH, SETTINGS)?;
    // Subscribed before the first read, so a change in between is not missed.
    let changes = settings.receive_signal("SettingChanged")?;
    if let Some(light) = read(&settings)? {
        let _ = proxy.send_event(UserEvent::PrefersLight(light));
    }
    for message in changes {
        let Ok((namespace, key, value)) =
            message.body().deserialize::<(String, String, OwnedValue)>()
        else {
            continue;
        };
        if namespace == NAMESPACE
            && key == KEY
            && let Some(light) = scheme(value)
            && proxy.send_event(UserEvent::PrefersLight(light)).is_err()
        {
            break;
        }
    }
    Ok(())
}

/// The current preference: `ReadOne` (portal version 2), else the older `Read`, whose answer
/// is a variant in a variant.
fn read(settings: &Proxy<'_>) -> zbus::Result<Option<bool>> {
    let value: OwnedValue = match settings.call("ReadOne", &(NAMESPACE, KEY)) {
        Ok(value) => value,
        Err(_) => {
            let outer: OwnedValue = settings.call("Read", &(NAMESPACE, KEY))?;
            match outer.downcast_ref::<zbus::zvariant::Value>() {
                Ok(inner) => inner.try_to_owned()?,
                Err(_) => outer,
            }
        }
    };
    Ok(scheme(value))
}

/// 2 is light, 1 dark; 0 (no preference) and anything else say nothing.
fn scheme(value: OwnedValue) -> Option<bool> {
    match u32::try_from(value) {
        Ok(1) => Some(false),
        Ok(2) => Some(true),
        _ => None,
    }
}
