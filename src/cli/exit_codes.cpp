#include "cli/exit_codes.h"

#include <exception>
#include <new>
#include <string>

#include "cli/command_line_errors.h"
#include "core/error.h"
#include "predict/option_schema.h"

namespace dtcalc::cli {

int run_command_line(CLI::App& app, const std::function<void()>& parse_and_run, std::ostream& out, std::ostream& err) {
    try {
        parse_and_run();
    } catch (const CLI::CallForHelp& e) {
        return app.exit(e, out, err);
    } catch (const CLI::CallForAllHelp& e) {
        return app.exit(e, out, err);
    } catch (const CLI::CallForVersion& e) {
        return app.exit(e, out, err);
    } catch (const CLI::ExtrasError&) {
        err << "dtcalc: error: " << unknown_arguments_message(app) << "\n";
        return 2;
    } catch (const CLI::ConversionError& e) {
        err << "dtcalc: error: " << conversion_error_message(app, e.what()) << "\n";
        return 2;
    } catch (const CLI::RequiredError& e) {
        if (!app.get_subcommands().empty()) {
            err << "dtcalc: error: " << e.what() << "\n";
            return 2;
        }
        std::string names;
        for (const CLI::App* command : app.get_subcommands({}))
            names += (names.empty() ? "" : ", ") + command->get_name();
        err << "dtcalc: error: expected a command: " << names << " (`dtcalc --help` says what each does)\n";
        return 2;
    } catch (const CLI::ParseError& e) {
        err << "dtcalc: error: " << e.what() << "\n";
        return 2;
    } catch (const OptionError& e) {
        // Not located by the command: the option was a flag.
        const bool located = !e.where().file.empty() || e.where().key != e.option();
        err << "dtcalc: error: " << (located ? e.what() : option_flag(e.option()) + ": " + e.detail()) << "\n";
        return 2;
    } catch (const InputError& e) {
        err << "dtcalc: error: " << e.what() << "\n";
        return 2;
    } catch (const ExitStatus& e) {
        return e.code;
    } catch (const std::bad_alloc&) {
        err << "dtcalc: error: out of memory (the input asks for more than this machine has)\n";
        return 2;
    } catch (const std::exception& e) {
        // Bad input ends as an InputError above; reaching here is a defect.
        err << "dtcalc: internal error: " << e.what() << " (please report it with the command and its inputs)\n";
        return 70;
    }
    return 0;
}

}  // namespace dtcalc::cli
