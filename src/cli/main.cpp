// dtcalc: parses the command line, runs one subcommand, turns bad input into
// a one-line message and exit code 2 (70 for a defect: an unexpected exception).
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <new>
#include <string>

#include "cli/cli_common.h"
#include "cli/collective_command.h"
#include "cli/route_command.h"
#include "cli/gen_workload_command.h"
#include "cli/run_command.h"
#include "cli/predict_command.h"
#include "cli/sweep_command.h"
#include "cli/list_command.h"
#include "cli/astra_command.h"
#include "cli/export_chakra_command.h"
#include "cli/command_line_errors.h"
#include "cli/validate_command.h"
#include "core/error.h"

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
    dtcalc::cli::setup_export_chakra_command(app, preset_dirs, model_dirs);
    dtcalc::cli::setup_gen_workload_command(app, preset_dirs);
    dtcalc::cli::setup_astra_command(app, preset_dirs);
    dtcalc::cli::setup_validate_command(app, preset_dirs, model_dirs);
    try {
        app.parse(argc, argv);
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e);
    } catch (const CLI::ExtrasError&) {
        std::cerr << "dtcalc: error: " << dtcalc::cli::unknown_arguments_message(app) << "\n";
        return 2;
    } catch (const CLI::ConversionError& e) {
        std::cerr << "dtcalc: error: " << dtcalc::cli::conversion_error_message(app, e.what()) << "\n";
        return 2;
    } catch (const CLI::RequiredError& e) {
        if (!app.get_subcommands().empty()) {
            std::cerr << "dtcalc: error: " << e.what() << "\n";
            return 2;
        }
        std::string names;
        for (const CLI::App* command : app.get_subcommands({}))
            names += (names.empty() ? "" : ", ") + command->get_name();
        std::cerr << "dtcalc: error: expected a command: " << names << " (`dtcalc --help` says what each does)\n";
        return 2;
    } catch (const CLI::ParseError& e) {
        std::cerr << "dtcalc: error: " << e.what() << "\n";
        return 2;
    } catch (const dtcalc::InputError& e) {
        std::cerr << "dtcalc: error: " << e.what() << "\n";
        return 2;
    } catch (const dtcalc::cli::ExitStatus& e) {
        return e.code;
    } catch (const std::bad_alloc&) {
        std::cerr << "dtcalc: error: out of memory (the input asks for more than this machine has)\n";
        return 2;
    } catch (const std::exception& e) {
        // Bad input ends as an InputError above; reaching here is a defect.
        std::cerr << "dtcalc: internal error: " << e.what() << " (please report it with the command and its inputs)\n";
        return 70;
    }
    return 0;
}
