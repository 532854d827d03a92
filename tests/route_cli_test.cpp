// `dtcalc route` and `dtcalc collective --links` end to end on the seed's
// 4x4 mesh: output, exit codes, error messages.
#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <sys/wait.h>

#include "run_dtcalc.h"
#include "temp_file.h"

using dtcalc::testing::write_temp_file;

using dtcalc::testing::Run;
using dtcalc::testing::run_dtcalc;

namespace {

std::string mesh_yaml() {
    return write_temp_file("route-mesh.yml",
                           "topology: [ Mesh2D ]\nnpus_count: [ 4, 4 ]\nbandwidth: [ 100 ]\nlatency: [ 50 ]\n");
}

std::string system_json(const std::string& name, const std::string& all_to_all) {
    return write_temp_file(name, R"({
  "scheduling-policy": "LIFO", "endpoint-delay": 10, "active-chunks-per-dimension": 1,
  "preferred-dataset-splits": 1, "collective-optimization": "localBWAware", "local-mem-bw": 1000,
  "all-reduce-implementation": ["ring", "ring"], "all-gather-implementation": ["ring", "ring"],
  "reduce-scatter-implementation": ["ring", "ring"], "all-to-all-implementation": )" + all_to_all + "\n}\n");
}

}  // namespace

TEST_CASE("route prints the seed's XY routes") {
    const Run a = run_dtcalc("route --network " + mesh_yaml() + " 1 7");
    CHECK(a.exit_code == 0);
    CHECK(a.out.find("# route 1 -> 7: 3 hops, 150 ns of latency") == 0);
    CHECK(a.out.find("\n1 -> 2 -> 3 -> 7\n") != std::string::npos);
    CHECK(a.out.find("(3,0) -> (3,1)") != std::string::npos);  // the last hop goes up y
    const Run b = run_dtcalc("route --network " + mesh_yaml() + " 14 5");
    CHECK(b.exit_code == 0);
    CHECK(b.out.find("\n14 -> 13 -> 9 -> 5\n") != std::string::npos);
    const Run json = run_dtcalc("route --network " + mesh_yaml() + " 14 5 --format json");
    CHECK(json.exit_code == 0);
    CHECK(json.out.find("\"npus\": [\n    14,\n    13,\n    9,\n    5\n  ]") != std::string::npos);
}

TEST_CASE("route and mesh input errors exit 2 with one clear line") {
    SUBCASE("an NPU outside the mesh") {
        const Run r = run_dtcalc("route --network " + mesh_yaml() + " 3 16");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: DST: NPU 16 is outside the network (it has NPUs 0 to 15)\n");
    }
    SUBCASE("not an NPU id") {
        const Run r = run_dtcalc("route --network " + mesh_yaml() + " one 2");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: SRC: expected an NPU id (0, 1, 2, ...), got 'one'\n");
    }
    SUBCASE("a Mesh2D with a dimension of size 1") {
        const std::string path = write_temp_file("route-mesh41.yml", "topology: [ Mesh2D ]\nnpus_count: [ 4, 1 ]\n"
                                                                     "bandwidth: [ 100 ]\nlatency: [ 50 ]\n");
        const Run r = run_dtcalc("route --network " + path + " 0 1");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + path +
                           ":2:18: npus_count[1]: Mesh2D needs at least 2 NPUs along each axis (got 1 along y); use "
                           "Ring for a single line\n");
    }
    SUBCASE("a mesh given as one count instead of X and Y") {
        const std::string path = write_temp_file("route-mesh16.yml", "topology: [ Mesh2D ]\nnpus_count: [ 16 ]\n"
                                                                     "bandwidth: [ 100 ]\nlatency: [ 50 ]\n");
        const Run r = run_dtcalc("route --network " + path + " 0 1");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: " + path +
                           ":2:15: npus_count: has 1 entries but 'topology' needs 2 (one per dimension; Mesh2D and "
                           "Torus2D take two, X then Y, and Torus3D three)\n");
    }
    SUBCASE("a group that is not the mesh's X x Y, nor a block of it") {
        const std::string sys = system_json("route-sys.json", "[\"direct\", \"direct\"]");
        const Run more = run_dtcalc("collective all-reduce --size 1MiB --network " + mesh_yaml() + " --system " + sys +
                                    " --npus 32");
        CHECK(more.exit_code == 2);
        CHECK(more.out == "dtcalc: error: --npus: the group has 32 NPUs but the network has only 16\n");
        const Run ragged = run_dtcalc("collective all-reduce --size 1MiB --network " + mesh_yaml() + " --system " +
                                      sys + " --npus 6");
        CHECK(ragged.exit_code == 2);
        CHECK(ragged.out == "dtcalc: error: --npus: 6 NPUs do not form a block of the network's dimensions (a group "
                            "must fill whole inner dimensions; try a multiple of 4)\n");
    }
    SUBCASE("no network") {
        const Run r = run_dtcalc("route 0 1");
        CHECK(r.exit_code == 2);
        CHECK(r.out == "dtcalc: error: --network: missing: give --network FILE (a network YAML) or --preset NAME\n");
    }
}

TEST_CASE("collective --links names the busiest links of a direct all-to-all") {
    const std::string sys = system_json("route-sys-one.json", "[\"oneDirect\"]");
    const Run r = run_dtcalc("collective all-to-all --size 1MiB --network " + mesh_yaml() + " --system " + sys +
                             " --links");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("phase 0: all-to-all oneDirect on dimension 0 (Mesh2D 4x4, whole grid): 1 step of 65536 B, "
                     "240 messages each") != std::string::npos);
    CHECK(r.out.find("busiest link 16 messages, longest route 6 hops") != std::string::npos);
    // The first of the 16-message links: 1 -> 2 along x (lowest link index).
    CHECK(r.out.find("           1          2    0    x+        16") != std::string::npos);
    const Run csv = run_dtcalc("collective all-to-all --size 1MiB --network " + mesh_yaml() + " --system " + sys +
                               " --links --format csv");
    CHECK(csv.exit_code == 2);
    CHECK(csv.out == "dtcalc: error: --links: is shown with --format table only\n");
}

TEST_CASE("the mesh and torus presets run") {
    const std::string presets = std::string(DTCALC_PRESETS_DIR);
    const Run mesh = run_dtcalc("collective all-reduce --size 1MiB --preset " + presets + "/lab-mesh-4x4.toml --links");
    CHECK(mesh.exit_code == 0);
    CHECK(mesh.out.find("Mesh2D 4x4, along x") != std::string::npos);
    const Run torus = run_dtcalc("collective all-reduce --size 1MiB --preset " + presets + "/torus-4x4x4.toml");
    CHECK(torus.exit_code == 0);
    CHECK(torus.out.find("all-reduce on 64 NPUs") != std::string::npos);
    const Run route = run_dtcalc("route --preset " + presets + "/torus-4x4x4.toml 0 63");
    CHECK(route.exit_code == 0);
    CHECK(route.out.find("# route 0 -> 63: 3 hops") == 0);  // (3,3,3): one step back along each axis
}
