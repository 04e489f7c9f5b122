# Sluice shell integration for fish: marks each prompt, command line, command output and exit
# status (OSC 133), and reports the working directory (OSC 7), so that Ctrl+Shift+Z /
# Ctrl+Shift+X jump between prompts, Ctrl+Shift+G copies the last output and a new tab opens
# where you are. Without it Sluice works as before.
#
# Install: add to ~/.config/fish/config.fish
#   set -q SLUICE_PANE; and source /usr/share/sluice/shell-integration/sluice.fish
# (or wherever assets/shell-integration/ is).

status is-interactive; or exit 0
set -q __sluice_integrated; and exit 0
set -g __sluice_integrated 1

function __sluice_report_directory --on-variable PWD
    printf '\e]7;file://%s%s\a' (hostname) (string escape --style=url -- $PWD)
end

function __sluice_prompt_start --on-event fish_prompt
    printf '\e]133;A\a'
end

function __sluice_preexec --on-event fish_preexec
    printf '\e]133;C\a'
end

function __sluice_postexec --on-event fish_postexec
    printf '\e]133;D;%s\a' $status
end

# The end of the prompt, where the command line begins.
functions -q fish_prompt; and functions -c fish_prompt __sluice_user_prompt
function fish_prompt
    functions -q __sluice_user_prompt; and __sluice_user_prompt
    printf '\e]133;B\a'
end

__sluice_report_directory
