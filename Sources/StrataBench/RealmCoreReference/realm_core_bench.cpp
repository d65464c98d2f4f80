// The realm-core reference of `strata bench --realm-core BINARY`: the workloads of the
// benchmark (bulk insert, count, sum, primary-key lookups, small durable commits, bulk update,
// delete 10 %, compaction) run through realm-core's own C++ API on the same inputs, which
// `strata bench` writes to a file (BenchInputsFile.swift describes the format).
//
// Not part of the Swift package (Package.swift excludes this folder): `build.sh` beside it
// compiles it against a realm-core source tree. Output: one JSON object per line,
//   {"workload":"insert","seconds":[...one per repetition...],"value":"1000000"}
// and {"fileBytes":[...]} / {"compactedBytes":[...]}; `strata bench` checks every value against
// its oracle and prints the ratios.
//
// Model: the class as RealmSwift would create it (table `class_Item`, Int primary key `id`,
// `name` String, `age` Int, `score` Double, `active` Bool), an in-realm history as the object
// store uses, full durability (one fsync per commit, realm-core's default).

#include <realm/db.hpp>
#include <realm/history.hpp>
#include <realm/query.hpp>
#include <realm/table.hpp>
#include <realm/transaction.hpp>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace realm;
namespace fs = std::filesystem;

namespace {

struct Row {
    int64_t id;
    std::string name;
    int64_t age;
    double score;
    bool active;
};

struct CommitOp {
    bool insert;
    Row row;        // insert
    int64_t id;     // update
    double score;   // update
};

struct Inputs {
    std::vector<Row> rows;
    int64_t ageLow = 0, ageHigh = 0;
    std::string prefix;
    std::vector<int64_t> lookups;
    std::vector<CommitOp> commits;
    std::vector<std::pair<int64_t, double>> updates;
    std::vector<int64_t> deletes;
};

[[noreturn]] void fail(const std::string& message)
{
    std::cerr << "realm-core-bench: " << message << std::endl;
    std::exit(2);
}

double bitsToDouble(const std::string& hex)
{
    uint64_t bits = std::stoull(hex, nullptr, 16);
    double value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

// Reads "<id>\t<age>\t<score bits hex>\t<active 0|1>\t<name>" (the name is the rest of the line).
Row parseRow(const std::string& line)
{
    Row row;
    size_t a = line.find('\t'), b = line.find('\t', a + 1), c = line.find('\t', b + 1), d = line.find('\t', c + 1);
    if (d == std::string::npos)
        fail("malformed row line: " + line);
    row.id = std::stoll(line.substr(0, a));
    row.age = std::stoll(line.substr(a + 1, b - a - 1));
    row.score = bitsToDouble(line.substr(b + 1, c - b - 1));
    row.active = line.substr(c + 1, d - c - 1) == "1";
    row.name = line.substr(d + 1);
    return row;
}

Inputs readInputs(const std::string& path)
{
    std::ifstream in(path);
    if (!in)
        fail("cannot read " + path);
    Inputs inputs;
    std::string line, word;
    std::getline(in, line);
    if (line != "strata-bench-inputs 1")
        fail(path + " is not a strata bench inputs file (version 1)");
    auto header = [&](const char* expected) {
        if (!std::getline(in, line))
            fail(std::string("missing section ") + expected);
        std::istringstream s(line);
        size_t count;
        s >> word >> count;
        if (word != expected)
            fail(std::string("expected section ") + expected + ", found: " + line);
        return count;
    };
    size_t n = header("rows");
    inputs.rows.reserve(n);
    for (size_t i = 0; i < n && std::getline(in, line); ++i)
        inputs.rows.push_back(parseRow(line));
    if (!std::getline(in, line))
        fail("missing count line");
    {
        std::istringstream s(line);
        s >> word >> inputs.ageLow >> inputs.ageHigh;
        std::getline(s, inputs.prefix);
        if (!inputs.prefix.empty() && inputs.prefix[0] == '\t')
            inputs.prefix.erase(0, 1);
    }
    n = header("lookups");
    for (size_t i = 0; i < n && std::getline(in, line); ++i)
        inputs.lookups.push_back(std::stoll(line));
    n = header("commits");
    for (size_t i = 0; i < n && std::getline(in, line); ++i) {
        CommitOp op{};
        if (line.rfind("I\t", 0) == 0) {
            op.insert = true;
            op.row = parseRow(line.substr(2));
        }
        else {
            std::istringstream s(line.substr(2));
            std::string bits;
            s >> op.id >> bits;
            op.insert = false;
            op.score = bitsToDouble(bits);
        }
        inputs.commits.push_back(op);
    }
    n = header("updates");
    for (size_t i = 0; i < n && std::getline(in, line); ++i) {
        std::istringstream s(line);
        int64_t id;
        std::string bits;
        s >> id >> bits;
        inputs.updates.emplace_back(id, bitsToDouble(bits));
    }
    n = header("deletes");
    for (size_t i = 0; i < n && std::getline(in, line); ++i)
        inputs.deletes.push_back(std::stoll(line));
    return inputs;
}

// The lookup fingerprint of BenchChecksum.swift (FNV-1a over name bytes, 0xFF, score bits).
struct Checksum {
    int64_t count = 0;
    uint64_t hash = 0xCBF29CE484222325ull;
    void mix(uint8_t byte) { hash = (hash ^ byte) * 0x00000100000001B3ull; }
    void combine64(uint64_t value)
    {
        for (int i = 0; i < 8; ++i) {
            mix(uint8_t(value));
            value >>= 8;
        }
    }
    void combine(StringData name, double score)
    {
        for (size_t i = 0; i < name.size(); ++i)
            mix(uint8_t(name.data()[i]));
        mix(0xFF);
        uint64_t bits;
        std::memcpy(&bits, &score, sizeof bits);
        combine64(bits);
        ++count;
    }
    void missing()
    {
        combine64(0xDEADBEEFDEADBEEFull);
        ++count;
    }
    std::string text() const
    {
        char buffer[64];
        std::snprintf(buffer, sizeof buffer, "count=%" PRId64 " hash=0x%" PRIx64, count, hash);
        return buffer;
    }
};

struct ItemColumns {
    ColKey id, name, age, score, active;
};

ItemColumns columns(ConstTableRef table)
{
    return {table->get_column_key("id"), table->get_column_key("name"), table->get_column_key("age"),
            table->get_column_key("score"), table->get_column_key("active")};
}

void setRow(Obj& obj, const ItemColumns& c, const Row& row)
{
    obj.set(c.name, StringData(row.name)).set(c.age, row.age).set(c.score, row.score).set(c.active, row.active);
}

double seconds(std::chrono::steady_clock::time_point start)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct Result {
    std::string workload;
    std::vector<double> seconds;
    std::string value;
};

} // namespace

int main(int argc, char** argv)
{
    if (argc != 4)
        fail("usage: realm-core-bench INPUTS DIRECTORY REPETITIONS");
    Inputs inputs = readInputs(argv[1]);
    fs::path directory = argv[2];
    int repetitions = std::atoi(argv[3]);
    if (repetitions < 1)
        fail("repetitions must be at least 1");

    const char* names[] = {"insert", "count", "sum", "lookup", "commit", "update", "delete", "compact"};
    std::vector<Result> results;
    for (auto name : names)
        results.push_back({name, {}, ""});
    std::vector<uintmax_t> fileBytes, compactedBytes;

    for (int repetition = 0; repetition < repetitions; ++repetition) {
        fs::path dir = directory / ("realm-core-" + std::to_string(repetition));
        fs::remove_all(dir);
        fs::create_directories(dir);
        std::string path = (dir / "bench.realm").string();
        auto history = make_in_realm_history();
        DBOptions options; // Durability::Full: fsync per commit
        DBRef db = DB::create(std::move(history), path, options);
        size_t w = 0;
        auto record = [&](double s, std::string value) {
            results[w].seconds.push_back(s);
            results[w].value = std::move(value);
            ++w;
        };

        { // bulk insert, one transaction
            auto start = std::chrono::steady_clock::now();
            auto tr = db->start_write();
            TableRef table = tr->add_table_with_primary_key("class_Item", type_Int, "id");
            table->add_column(type_String, "name");
            table->add_column(type_Int, "age");
            table->add_column(type_Double, "score");
            table->add_column(type_Bool, "active");
            ItemColumns c = columns(table);
            for (const Row& row : inputs.rows) {
                Obj obj = table->create_object_with_primary_key(Mixed(row.id));
                setRow(obj, c, row);
            }
            tr->commit();
            record(seconds(start), std::to_string(inputs.rows.size()));
            fileBytes.push_back(fs::file_size(path));
        }
        { // count with a predicate
            auto start = std::chrono::steady_clock::now();
            auto tr = db->start_read();
            ConstTableRef table = tr->get_table("class_Item");
            ItemColumns c = columns(table);
            size_t n = table->where()
                           .between(c.age, inputs.ageLow, inputs.ageHigh)
                           .begins_with(c.name, StringData(inputs.prefix))
                           .count();
            record(seconds(start), std::to_string(n));
        }
        { // sum of an Int column
            auto start = std::chrono::steady_clock::now();
            auto tr = db->start_read();
            ConstTableRef table = tr->get_table("class_Item");
            auto sum = table->sum(columns(table).age);
            record(seconds(start), std::to_string(sum ? sum->get_int() : 0));
        }
        { // primary-key lookups
            auto start = std::chrono::steady_clock::now();
            auto tr = db->start_read();
            ConstTableRef table = tr->get_table("class_Item");
            ItemColumns c = columns(table);
            Checksum checksum;
            for (int64_t id : inputs.lookups) {
                ObjKey key = table->find_primary_key(Mixed(id));
                if (key) {
                    Obj obj = table->get_object(key);
                    checksum.combine(obj.get<StringData>(c.name), obj.get<double>(c.score));
                }
                else {
                    checksum.missing();
                }
            }
            record(seconds(start), checksum.text());
        }
        { // small durable commits
            auto start = std::chrono::steady_clock::now();
            int64_t changed = 0;
            for (const CommitOp& op : inputs.commits) {
                auto tr = db->start_write();
                TableRef table = tr->get_table("class_Item");
                ItemColumns c = columns(table);
                if (op.insert) {
                    Obj obj = table->create_object_with_primary_key(Mixed(op.row.id));
                    setRow(obj, c, op.row);
                    ++changed;
                }
                else if (ObjKey key = table->find_primary_key(Mixed(op.id))) {
                    table->get_object(key).set(c.score, op.score);
                    ++changed;
                }
                tr->commit();
            }
            record(seconds(start), std::to_string(changed));
        }
        { // update 10 %, one transaction
            auto start = std::chrono::steady_clock::now();
            auto tr = db->start_write();
            TableRef table = tr->get_table("class_Item");
            ItemColumns c = columns(table);
            int64_t changed = 0;
            for (auto& [id, score] : inputs.updates) {
                if (ObjKey key = table->find_primary_key(Mixed(id))) {
                    table->get_object(key).set(c.score, score);
                    ++changed;
                }
            }
            tr->commit();
            record(seconds(start), std::to_string(changed));
        }
        { // delete 10 %, one transaction
            auto start = std::chrono::steady_clock::now();
            auto tr = db->start_write();
            TableRef table = tr->get_table("class_Item");
            int64_t deleted = 0;
            for (int64_t id : inputs.deletes) {
                if (ObjKey key = table->find_primary_key(Mixed(id))) {
                    table->remove_object(key);
                    ++deleted;
                }
            }
            tr->commit();
            record(seconds(start), std::to_string(deleted));
        }
        { // compaction (no other transaction open)
            auto start = std::chrono::steady_clock::now();
            if (!db->compact())
                fail("compact() refused (another transaction is open)");
            double s = seconds(start);
            compactedBytes.push_back(fs::file_size(path));
            record(s, std::to_string(compactedBytes.back()));
        }
        db->close();
        db.reset();
        fs::remove_all(dir);
    }

    auto list = [](auto& values) {
        std::string out = "[";
        for (size_t i = 0; i < values.size(); ++i) {
            std::ostringstream s;
            s.precision(9);
            s << values[i];
            out += (i ? "," : "") + s.str();
        }
        return out + "]";
    };
    for (auto& r : results)
        std::cout << "{\"workload\":\"" << r.workload << "\",\"seconds\":" << list(r.seconds) << ",\"value\":\""
                  << r.value << "\"}\n";
    std::cout << "{\"fileBytes\":" << list(fileBytes) << "}\n";
    std::cout << "{\"compactedBytes\":" << list(compactedBytes) << "}\n";
    return 0;
}
