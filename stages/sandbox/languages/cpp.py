"""C++: compiled inside the sandbox by Debian's g++ (C++17, -O2), then run as a stdin / stdout program."""
from . import Language, register_language

EXAMPLE = """#include <iostream>
int main() {
    long long a, b;
    std::cin >> a >> b;
    std::cout << a + b << "\\n";
}
"""

CPP = register_language(Language("cpp", fences=("cpp", "c++", "cc", "cxx"), source_file="solution.cpp",
                                 example=EXAMPLE, build=("/usr/bin/g++", "-std=c++17", "-O2", "-pipe", "-o",
                                                         "solution", "solution.cpp"),
                                 run=("./solution",), needs="g++ (`apt-get install g++`)"))
