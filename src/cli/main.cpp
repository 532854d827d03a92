// dtcalc: parses the command line and runs one subcommand; how it ends (exit
// codes, the one-line message of an error) is cli/exit_codes.h.
#include <CLI/CLI.hpp>

#include <iostream>
#include <string>

#include "cli/cli_common.h"
#include "cli/collective_command.h"
#include "cli/route_command.h"
#include "cli/gen_workload_command.h"
#include "cli/run_command.h"
#include "cli/predict_command.h"
#include "cli/sweep_command.h"
#include "cli/list_command.h"
#include "cli/preset_command.h"
#include "cli/astra_command.h"
#include "cli/export_chakra_command.h"
#include "cli/exit_codes.h"
#include "cli/validate_command.h"
#include "cli/calibrate_command.h"

int main(int argc, char** argv) {
    const std::vector<std::string> preset_dirs = dtcalc::cli::preset_search_dirs(argc > 0 ? argv[0] : "dtcalc");
    CLI::App app{"dtcalc: distributed-training cost calculator (closed-form collectives, critical-path iterations)"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "dtcalc 0.1.0");
    dtcalc::cli::setup_collective_command(app, preset_dirs);
    dtcalc::cli::setup_route_command(app, preset_dirs);
    dtcalc::cli::setup_run_command(app, preset_dirs);
    const std::vector<std::string> model_dirs = dtcalc::cli::model_search_dirs(argc > 0 ? argv[0] : "dtcalc");
    dtcalc::cli::setup_predict_command(app, preset_dirs, model_dirs);
    dtcalc::cli::setup_sweep_command(app, preset_dirs, model_dirs);
    dtcalc::cli::setup_list_command(app, preset_dirs, model_dirs);
    dtcalc::cli::setup_preset_command(app, preset_dirs);
    dtcalc::cli::setup_export_chakra_command(app, preset_dirs, model_dirs);
    dtcalc::cli::setup_gen_workload_command(app, preset_dirs);
    dtcalc::cli::setup_astra_command(app, preset_dirs);
    dtcalc::cli::setup_validate_command(app, preset_dirs, model_dirs);
    dtcalc::cli::setup_calibrate_command(app, preset_dirs, model_dirs);
    return dtcalc::cli::run_command_line(app, [&] { app.parse(argc, argv); }, std::cout, std::cerr);
}
